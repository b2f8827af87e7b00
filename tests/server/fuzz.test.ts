// Garbage on every route: wrong types, huge strings, unknown fields, __proto__ keys, bad JSON, JSON nested 10,000
// deep or repeating a key. Every answer is a 4xx failure envelope and nothing is written.
import { expect, it } from 'vitest';
import { loadManifestDir } from '../../server/manifests.ts';
import { ERROR_CODES, type ErrorCode } from '../../server/error-codes.ts';
import { forEachDialect } from './harness.ts';
import { runFuzz, seedFuzzTarget } from './fuzz-target.ts';

const manifests = loadManifestDir('schemas');
const routes = manifests.flatMap((m) => Object.values(m.actions).map((a) => ({ method: a.method, path: a.path })));
routes.push({ method: 'POST', path: '/v1/user/login' }, { method: 'POST', path: '/v1/user/logout' });
const tables = manifests.filter((m) => m.table && m.provides !== 'audit-log').map((m) => m.table!);

const huge = 'x'.repeat(10 * 1024);
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const queries: Record<string, string>[] = [
  { id: 'abc' },
  { id: '1', page: '-1' },
  { name: huge, maxVersion: huge, email: huge, password: huge, role: huge },
  { unknownField: '1' },
  { __proto__x: '1', constructor: 'x' },
  { sortBy: "name; drop table users" },
  { email: `${huge}@x.io`, password: 'long-enough-1', role: 'admin' },
  // JSON values (the device lookup's platform, a combination's customBuildUrls) nested too deep or repeating a key.
  { platform: `{"name": ${deep(3000)}}`, customBuildUrls: deep(3000), name: 'x', maxVersion: '1.2.3' },
  { platform: '{"name": "a", "name": "b"}', customBuildUrls: '[{"a": 1, "a": 2}]', name: 'x', maxVersion: '1.2.3' },
];
const bodies: string[] = [
  '{"email": "a@b.c", "password": ',
  '[1,2,3]',
  '"just a string"',
  '{"__proto__": {"isAdmin": true}}',
  '{"constructor": {"prototype": {"x": 1}}}',
  JSON.stringify({ email: huge, password: huge }),
  JSON.stringify({ email: 7, password: false, extra: 'field' }),
  deep(10_000),
  `{"email": "a@b.c", "password": "long-enough-1", "goalParams": ${deep(5_000)}}`,
  '{"email": "a@b.c", "email": "b@b.c", "password": "long-enough-1"}',
  '{"id": 1, "x": {"a": 1, "b": [{"c": 1, "c": 2}]}}',
];

forEachDialect('garbage on every route', (h) => {
  it('answers every garbage query with a 4xx envelope and writes nothing', async () => {
    const before = await Promise.all(tables.map((t) => h.count(t)));
    for (const route of routes) {
      for (const query of queries) {
        const url = `${route.path}?${new URLSearchParams(query).toString().replace('__proto__x', '__proto__')}`;
        const reply = await h.call(route.method, url, { token: h.tokens.admin });
        if (reply.status === 200) {
          // A list ignoring nothing: only a read may succeed, never a write.
          expect(route.path, `${route.method} ${url.slice(0, 120)}`).toMatch(/\/(get|logout)$/);
          continue;
        }
        expect(reply.status, `${route.method} ${url.slice(0, 120)}`).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
        expect(reply.body).toMatchObject({ result: false, message: expect.any(String), code: expect.stringMatching(/^ERR_/) });
        expect(ERROR_CODES[reply.body.code as ErrorCode].status).toBe(reply.status);
      }
    }
    expect(await Promise.all(tables.map((t) => h.count(t)))).toEqual(before);
  });

  it('answers every garbage JSON body with a 4xx envelope and writes nothing', async () => {
    const before = await Promise.all(tables.map((t) => h.count(t)));
    for (const route of routes) {
      for (const body of bodies) {
        const reply = await h.call(route.method === 'GET' ? 'POST' : route.method, route.path, { token: h.tokens.admin, body });
        expect(reply.status, `${route.method} ${route.path} ${body.slice(0, 60)}`).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
        expect(reply.body).toMatchObject({ result: false, message: expect.any(String), code: expect.stringMatching(/^ERR_/) });
        expect(ERROR_CODES[reply.body.code as ErrorCode].status).toBe(reply.status);
      }
    }
    expect(await Promise.all(tables.map((t) => h.count(t)))).toEqual(before);
  });

  it('answers an unknown route with a 404 envelope', async () => {
    expect(await h.call('GET', '/v1/admin/nothing/here')).toMatchObject({ status: 404, body: { result: false } });
  });

  it('answers a body over the limit with 413', async () => {
    const reply = await h.call('POST', '/v1/user/login', { body: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(reply.status).toBe(413);
    expect(reply.body.result).toBe(false);
  });
});

forEachDialect('bad input the fuzzer found', (h) => {
  it('never runs a write for HEAD: HEAD /v1/admin/platform/add answers 405 and creates no row', async () => {
    const before = await h.count('platforms');
    const reply = await h.app.inject({ method: 'HEAD', url: '/v1/admin/platform/add?name=by-head&maxVersion=1.2.3', headers: { authorization: h.tokens.admin } });
    expect(reply.statusCode).toBe(405);
    expect(reply.headers.allow).toBe('GET');
    expect(await h.count('platforms')).toBe(before);
    expect((await h.app.inject({ method: 'HEAD', url: '/v1/admin/platform/get', headers: { authorization: h.tokens.admin } })).statusCode).toBe(200);
  });

  const broken: [string, string, string][] = [
    ['no boundary', 'multipart/form-data', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nacme\r\n--x--\r\n'],
    ['an unterminated part', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nacme'],
    ['an unterminated file', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="imageHD"; filename="a.png"\r\n\r\n\x89PNG'],
  ];
  for (const [what, type, payload] of broken) {
    it(`answers a multipart form with ${what} with 400 (401 without a token), and stores nothing`, async () => {
      const before = await h.count('whitelabels');
      const send = (headers: Record<string, string>) =>
        h.app.inject({ method: 'POST', url: '/v1/admin/whitelabel/add', headers: { 'content-type': type, ...headers }, payload });
      const anonymous = await send({});
      expect(anonymous.statusCode).toBe(401);
      const reply = await send({ authorization: h.tokens.admin });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toEqual({ result: false, code: 'ERR_MALFORMED', message: expect.stringMatching(/^The multipart form is malformed: /) });
      expect(await h.count('whitelabels')).toBe(before);
    });
  }

  it('answers ids beyond the id column with 400 naming the field, from a query and from JSON', async () => {
    for (const id of ['2147483648', '9223372036854776000', '-9223372036854775809']) {
      const reply = await h.admin('GET', '/v1/admin/platform/destroy', { query: { id } });
      expect(reply.status, id).toBe(400);
      expect(reply.body.message).toMatch(/^id must be /);
    }
    const json = await h.admin('POST', '/v1/admin/abtesting/changeIsActive', { body: '{"id": 9223372036854776000}' });
    expect(json.status).toBe(400);
    expect(json.body.message).toMatch(/^id must be at most 2147483647/);
    const relation = await h.admin('GET', '/v1/admin/combination/get', { query: { whitelabelId: '2147483648' } });
    expect(relation.status).toBe(400);
    const custom = await h.admin('GET', '/v1/admin/build/reloadForWl', { query: { whitelabelId: '2147483648' } });
    expect(custom.status).toBe(400);
  });

  it('answers a NUL byte in a filter or a field with 400 naming the field', async () => {
    const filter = await h.admin('GET', '/v1/admin/user/get', { query: { email: 'a\0b' } });
    expect(filter).toMatchObject({ status: 400, body: { message: 'email: must not contain a NUL character' } });
    const field = await h.admin('POST', '/v1/admin/goalsAbtesting/add', { body: { goalName: 'x\u0000y' } });
    expect(field).toMatchObject({ status: 400, body: { message: 'goalName: must not contain a NUL character' } });
  });
});

// The bounded fuzzer: every route of the manifests, hostile values per field type, every role, a fixed seed.
// No answer is a 5xx; an acknowledged write has exactly its audit row; a refused one (other than 403) none.
// `npm run bench fuzz` runs the same with more requests per route and any seed.
const FUZZ_SEED = 20_251_123;

forEachDialect('seeded fuzzer on every route', (h) => {
  it(`answers every hostile request with a 4xx or a success, never a 5xx, and logs exactly the acknowledged writes (seed ${FUZZ_SEED})`, async () => {
    const fixtures = await seedFuzzTarget(h.app, h.tokens.admin);
    const run = await runFuzz(h.app, manifests, h.tokens, fixtures, { seed: FUZZ_SEED, perRoute: 24 });
    expect(run.count).toBeGreaterThan(1500);
    expect(run.acknowledgedWrites).toBeGreaterThan(100);
    expect(run.problems.slice(0, 15)).toEqual([]);
  });
});
