// Large JSON bodies are parsed in slices (server/plugins/json-body.ts): the same value as JSON.parse, the same
// refusals (bad JSON, prototype poisoning) as a small body, whatever the nesting; or handed over as bytes.
import { expect, it } from 'vitest';
import { request } from 'node:http';
import Fastify, { type RouteOptions } from 'fastify';
import { BODY_LIMIT } from '../../server/app.ts';
import { installErrorHandlers } from '../../server/errors.ts';
import { LARGE_BODY, LOOP_BODY_LIMIT, parseInSlices, registerJsonBodies } from '../../server/plugins/json-body.ts';
import { JsonBytes } from '../../server/core/json-bytes.ts';
import { MAX_JSON_DEPTH, scanJsonShape } from '../../server/json-shape.ts';
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

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

it('finds nesting past the limit and a key repeated in one object, at any depth, and nothing in JSON without either', () => {
  expect(scanJsonShape(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBeUndefined();
  expect(scanJsonShape(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toEqual({ deeperThan: MAX_JSON_DEPTH });
  expect(scanJsonShape(nestedObject(10_000), MAX_JSON_DEPTH)).toEqual({ deeperThan: MAX_JSON_DEPTH });
  expect(scanJsonShape('[[1]]', MAX_JSON_DEPTH, MAX_JSON_DEPTH - 1)).toEqual({ deeperThan: MAX_JSON_DEPTH });
  const repeated: [string, string][] = [
    ['{"a": 1, "a": 2}', 'a'],
    ['{"x": [{"b": {"c": 1, "d": 2, "c": 3}}]}', 'c'],
    ['{"a\\u0062": 1, "ab": 2}', 'ab'], // the same key, one of them escaped
    ['{"\\"": 1, "\\u0022": 2}', '"'],
    [`{${Array.from({ length: 500 }, (_, i) => `"k${i}": ${i}`).join(', ')}, "k17": 0}`, 'k17'], // past the pairwise 8
    ['[{"a": 1}, {"b": {"a": 1}}, {"c": 1, "c": 1}]', 'c'],
  ];
  for (const [text, key] of repeated) expect(scanJsonShape(text, MAX_JSON_DEPTH), text.slice(0, 40)).toEqual({ repeated: key });
  for (const text of [...samples, '{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}', '{"a": "\\"a\\": 1, ", "b": "{,[\\\\"}', '{"ab": 1, "a\\u0063": 2}']) {
    expect(scanJsonShape(text, MAX_JSON_DEPTH), text.slice(0, 40)).toBeUndefined();
  }
});

it('refuses a body nested too deep or repeating a key, whatever the slice, across the runs of one object too', async () => {
  const members = Array.from({ length: 40 }, (_, i) => `"k${i}": {"v": [${i}, "${'x'.repeat(i)}"]}`).join(', ');
  const refused = [
    nested(10_000),
    `{"list": [1, 2, ${nested(MAX_JSON_DEPTH)}], "z": 1}`,
    `{${members}, "k3": 0}`,
    `{"k3": 0, ${members}}`,
    `[{"a": 1, "b": 2}, {"c": {"d": 1, "d": 2}}, ${'3, '.repeat(50)}4]`,
    `{"big": ${JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ i })))}, "big": 1}`,
  ];
  for (const text of refused) {
    for (const slice of [8, 64, 1000, 1_000_000]) {
      await expect(parseInSlices(text, JSON.parse, slice), `${text.slice(0, 30)} / ${slice}`).rejects.toMatchObject({
        status: 400,
        code: 'ERR_MALFORMED',
        message: expect.stringMatching(/^The JSON body (nests deeper than 64 levels|repeats the key "(k3|d|big)" in one object)$/),
      });
    }
  }
  for (const slice of [8, 64]) expect(await parseInSlices(`{"a": ${nested(MAX_JSON_DEPTH - 1)}}`, JSON.parse, slice)).toEqual({ a: JSON.parse(nested(MAX_JSON_DEPTH - 1)) });
});

it('answers a body nested too deep or repeating a key 400 on the event loop, small or sliced', async () => {
  const app = Fastify({ bodyLimit: 4 * 1024 * 1024 });
  registerJsonBodies(app);
  installErrorHandlers(app);
  app.post('/echo', async (req) => req.body);
  const post = (payload: string) => app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });
  const filler = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}`, vendor: 'lg' })));
  try {
    for (const [body, message] of [
      [nested(10_000), 'The JSON body nests deeper than 64 levels'],
      [`{"a": 1, "b": {"c": 2, "c": 3}}`, 'The JSON body repeats the key "c" in one object'],
      [`{"a": 1, "a": 2}`, 'The JSON body repeats the key "a" in one object'],
      [`{"list": ${filler}, "deep": ${nested(10_000)}}`, 'The JSON body nests deeper than 64 levels'],
      [`{"list": ${filler.replace('"vendor": "lg"', '"vendor": "lg", "ip": "x"').replace(/"vendor":"lg"}\]$/, '"vendor":"lg","ip":"y"}]')}}`, 'The JSON body repeats the key "ip" in one object'],
      [`{"list": ${filler}, "list": 1}`, 'The JSON body repeats the key "list" in one object'],
    ]) {
      const reply = await post(body);
      expect([body.length > LARGE_BODY, reply.statusCode, reply.json()]).toEqual([body.length > LARGE_BODY, 400, { result: false, code: 'ERR_MALFORMED', message }]);
    }
    expect((await post(`{"list": ${filler}, "deep": ${nested(MAX_JSON_DEPTH - 1)}}`)).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});

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

forEachDialect('hostile JSON on every path', (h) => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const refused = (reply: { status: number; body: { code?: string; message?: string } }, message: RegExp) => {
    expect([reply.status, reply.body.code]).toEqual([400, 'ERR_MALFORMED']);
    expect(reply.body.message).toMatch(message);
  };

  it('answers a body 10,000 levels deep 400 on a staff call, a login and the IP import (read on its worker), small or large', async () => {
    for (const url of ['/v1/admin/goalsAbtesting/add', '/v1/user/login', '/v1/admin/testersIP/addArray']) {
      refused(await h.call('POST', url, { token: h.tokens.admin, body: deep(5_000) }), /^The JSON body nests deeper than 64 levels$/);
    }
    refused(await h.call('POST', '/v1/admin/goalsAbtesting/add', { token: h.tokens.admin, body: `{"goalName": ${deep(10_000)}}` }), /nests deeper/);
    const list = Array.from({ length: 40_000 }, (_, i) => `{"ip": "81.0.${(i >> 8) & 255}.${i & 255}", "vendor": "lg"}`).join(',');
    const large = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: `{"ips": [${list}, ${deep(10_000)}]}` });
    refused(large, /^The JSON body nests deeper than 64 levels$/);
    expect(await h.count('tester_ips')).toBe(0);
  });

  it('answers a device report whose goalParams nests 5,000 deep 400, and one within the limit as usual', async () => {
    expect((await h.admin('POST', '/v1/admin/goalsAbtesting/add', { body: { goalName: 'deep-goal' } })).status).toBe(200);
    const report = (goalParams: string) =>
      h.call('POST', '/v1/achievedGoals/report', { body: `{"appInstallId": "deep-device", "goalName": "deep-goal", "goalParams": ${goalParams}}` });
    refused(await report(`{"a": ${deep(5_000)}}`), /^The JSON body nests deeper than 64 levels$/);
    // Objects as deep as the device body limit (16 KiB) allows.
    refused(await report(`${'{"a":'.repeat(2_500)}1${'}'.repeat(2_500)}`), /^The JSON body nests deeper than 64 levels$/);
    refused(await report('{"a": 1, "a": 2}'), /^The JSON body repeats the key "a" in one object$/);
    const within = await report(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`);
    expect(within.body).toEqual({ result: true, data: { stuckingCount: 0 } });
  });

  it('refuses a key repeated at the top or deep in a body with 400 on every path, the IP import included', async () => {
    refused(await h.admin('POST', '/v1/admin/goalsAbtesting/add', { body: '{"goalName": "a", "goalName": "b"}' }), /^The JSON body repeats the key "goalName" in one object$/);
    refused(await h.call('POST', '/v1/user/login', { body: '{"email": "a@b.c", "password": {"x": 1, "y": [{"z": 1, "z": 1}]}}' }), /repeats the key "z"/);
    const list = Array.from({ length: 40_000 }, (_, i) => `{"ip": "82.0.${(i >> 8) & 255}.${i & 255}", "vendor": "lg"}`);
    list[39_999] = '{"ip": "82.1.0.1", "vendor": "lg", "vendor": "samsung"}';
    refused(await h.admin('POST', '/v1/admin/testersIP/addArray', { body: `{"ips": [${list.join(',')}]}` }), /^The JSON body repeats the key "vendor" in one object$/);
    refused(await h.admin('POST', '/v1/admin/testersIP/addArray', { body: '{"ips": [], "ips": []}' }), /repeats the key "ips"/);
    expect(await h.count('tester_ips')).toBe(0);
  });

  it('answers an IP import whose ips is JSON text, not a list, 400 naming the field (the fuzzer found a 500)', async () => {
    const reply = await h.admin('POST', '/v1/admin/testersIP/addArray', { body: { ips: '[{"ip": "1.2.3.4", "vendor": "lg"}]' } });
    expect([reply.status, reply.body.message, reply.body.fields]).toEqual([400, 'ips must be a JSON array in the body, not text', [{ field: 'ips', message: 'ips must be a JSON array in the body, not text' }]]);
    expect(await h.count('tester_ips')).toBe(0);
  });

  it('refuses JSON in a query nested too deep or repeating a key, naming the field: the device lookup and a staff call', async () => {
    const lookup = (platform: string) => h.call('GET', '/v1/combination/get', { query: { platform } });
    for (const [platform, problem] of [
      [deep(10_000), 'it nests deeper than 64 levels'],
      ['{"name": "tizen", "name": "webos"}', 'it repeats the key "name" in one object'],
    ]) {
      const reply = await lookup(platform);
      expect([reply.status, reply.body.message, reply.body.fields]).toEqual([400, `Platform is not accepted JSON: ${problem}`, [{ field: 'platform', message: `Platform is not accepted JSON: ${problem}` }]]);
    }
    expect((await lookup('{"name": "tizen"}')).status).toBe(404);
    const staff = await h.admin('GET', '/v1/admin/combination/add', { query: { customBuildUrls: `[${deep(1_000)}]` } });
    expect([staff.status, staff.body.message]).toEqual([400, 'Custom build URLs is not accepted JSON: it nests deeper than 64 levels']);
    expect(await h.count('combinations')).toBe(0);
  });
});
