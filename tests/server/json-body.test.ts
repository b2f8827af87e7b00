// Large JSON bodies are parsed in slices (server/plugins/json-body.ts): the same value as JSON.parse, the same
// refusals (bad JSON, prototype poisoning) as a small body, whatever the nesting; or handed over as bytes.
import { expect, it } from 'vitest';
import { request } from 'node:http';
import Fastify, { type RouteOptions } from 'fastify';
import { BODY_LIMIT } from '../../server/app.ts';
import { JsonBytes, LOOP_BODY_LIMIT, parseInSlices, registerJsonBodies } from '../../server/plugins/json-body.ts';
import { forEachDialect, startApp } from './harness.ts';

const samples = [
  '[]',
  '{}',
  ' [1, 2, 3] ',
  '{"a": [1, {"b": "x,y]}"}, "c\\"d"], "e": {"f": [[], {}, [[1]]]}, "g": null, "h": true}',
  '[{"ip": "10.0.0.1", "vendor": "lg"}, {"ip": "10.0.0.2/24", "vendor": "samsung"}, "a \\\\", "\\u00e9,]"]',
  '\ufeff{"ips": [' + Array.from({ length: 200 }, (_, i) => `{"ip": "1.2.3.${i % 256}", "n": ${i}, "s": "[{,}]"}`).join(', ') + ']}',
  '{"big": ' + JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ list: Array.from({ length: 20 }, (_, j) => i * j), text: 'x'.repeat(i) }))) + ', "z": 1}',
];

it('gives what JSON.parse gives, with slices far smaller than the members', async () => {
  for (const text of samples) {
    for (const slice of [8, 64, 1000]) {
      expect(await parseInSlices(text, JSON.parse, slice)).toEqual(JSON.parse(text.replace(/^\ufeff/, '')));
    }
  }
});

it.each(['[1,,2]', '[1, 2,]', '{"a": 1,}', '[1, 2', '[1, 2]]', '{"a" 1, "b": 2}', '[1, "open]', '{"a": [1, 2}, "b": 3}', '[1, 2] [3]'])(
  'refuses the bad JSON %s, whatever the slice',
  async (text) => {
    for (const slice of [2, 4, 1000]) await expect(parseInSlices(text, JSON.parse, slice)).rejects.toThrow();
  },
);

it('decodes a large body sent in pieces that cut its characters in two, and refuses one over the limit', async () => {
  const app = Fastify({ bodyLimit: 4 * 1024 * 1024 });
  registerJsonBodies(app);
  app.post('/echo', async (req) => req.body);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  /** Sends `body` in pieces of `piece` bytes, each written after the previous one left. */
  const send = (body: Buffer, piece: number) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path: '/echo', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d) => (text += d)).on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      let at = 0;
      const next = () => {
        if (at >= body.length || req.destroyed) return void req.end();
        req.write(body.subarray(at, (at += piece)), () => setImmediate(next));
      };
      next();
    });
  try {
    // 2- 3- and 4-byte characters everywhere, sent in pieces of odd sizes: most pieces end inside a character.
    const value = { list: Array.from({ length: 60_000 }, (_, i) => `é${i}日本🙂ü-жжж`) };
    const text = JSON.stringify(value);
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const body = Buffer.from(text);
    for (const piece of [1021, 65_537]) {
      const reply = await send(body, piece);
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toEqual(value);
    }
    expect((await send(Buffer.from(`[${'1,'.repeat(2.1 * 1024 * 1024)}1]`), 65_536)).status).toBe(413);
  } finally {
    await app.close();
  }
});

it('hands a route that asks for it the exact bytes of its body, with or without a Content-Length, within its limit', async () => {
  const app = Fastify({ bodyLimit: 1024 * 1024 });
  registerJsonBodies(app);
  app.post('/bytes', { config: { jsonBytes: true } }, async (req) => {
    const body = req.body as JsonBytes;
    return { isBytes: body instanceof JsonBytes, text: body.bytes.toString('utf8') };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const send = (body: Buffer, length: boolean) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const headers: Record<string, string | number> = { 'content-type': 'application/json' };
      if (length) headers['content-length'] = body.length;
      const req = request({ port, host: '127.0.0.1', path: '/bytes', method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d) => (text += d)).on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      // In pieces that cut characters in two.
      for (let at = 0; at < body.length; at += 4097) req.write(body.subarray(at, at + 4097));
      req.end();
    });
  try {
    for (const text of ['{"a": "é日本🙂"}', JSON.stringify({ ips: Array.from({ length: 20_000 }, (_, i) => ({ ip: `1.2.${i >> 8}.${i & 255}`, vendor: 'lg', note: 'жü' })) })]) {
      for (const length of [true, false]) {
        const reply = await send(Buffer.from(text), length);
        expect([reply.status, JSON.parse(reply.text)]).toEqual([200, { isBytes: true, text }]);
      }
    }
    expect((await send(Buffer.alloc(1024 * 1024 + 1, 32), false)).status).toBe(413);
  } finally {
    await app.close();
  }
});

it('parses no body above LOOP_BODY_LIMIT on the event loop: a route that takes more reads its bytes on a worker, others refuse it with 413 before reading it', async () => {
  const routes: RouteOptions[] = [];
  const { app, cleanup } = await startApp('sqlite', { onRoute: (route) => routes.push(route) });
  try {
    const large = routes.filter((route) => (route.bodyLimit ?? BODY_LIMIT) > LOOP_BODY_LIMIT);
    expect(large.map((route) => [route.url, route.config?.jsonBytes])).toEqual([['/v1/admin/testersIP/addArray', true]]);
    // A body of the IP import's size sent anywhere else is refused from its Content-Length, unread.
    const body = Buffer.alloc(51 * 1024 * 1024, 32);
    const reply = await app.inject({ method: 'POST', url: '/v1/admin/platform/add', headers: { 'content-type': 'application/json' }, payload: body });
    expect([reply.statusCode, reply.json().code]).toEqual([413, 'ERR_TOO_LARGE']);
  } finally {
    await app.close();
    await cleanup();
  }
});

forEachDialect('large JSON bodies', (h) => {
  const bigList = (extra = '') => `{"ips": [${Array.from({ length: 40_000 }, (_, i) => `{"ip": "80.0.${(i >> 8) & 255}.${i & 255}", "vendor": "lg"${extra}}`).join(',')}]}`;

  it('imports a body above a mebibyte like a small one', async () => {
    const text = bigList();
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const reply = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: text });
    expect(reply.body).toEqual({ result: true, data: { count: 40_000 } });
  });

  it('refuses bad JSON and a poisoned key in a large body with the words of a small one', async () => {
    const small = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: '{"ips": [1,,2]}' });
    expect(small.status).toBe(400);
    const large = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: bigList().replace(/\]\}$/, ',]}') });
    expect([large.status, large.body.message]).toEqual([400, small.body.message]);

    const poisonedSmall = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: '{"ips": [{"__proto__": {"x": 1}}]}' });
    expect(poisonedSmall.status).toBe(400);
    const poisoned = bigList().replace('"vendor": "lg"}', '"vendor": "lg", "__proto__": {"x": 1}}');
    const poisonedLarge = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: poisoned });
    expect([poisonedLarge.status, poisonedLarge.body.message]).toEqual([400, poisonedSmall.body.message]);
    const poisonedKey = `{"__proto__": ${bigList().slice(8, -1)}, "ips": []}`;
    const refusedKey = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: poisonedKey });
    expect([refusedKey.status, refusedKey.body.message]).toEqual([400, poisonedSmall.body.message]);
  });
});
