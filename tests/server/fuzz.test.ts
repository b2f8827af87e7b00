// Garbage on every route: wrong types, huge strings, unknown fields, __proto__ keys, bad JSON. Every answer
// is a 4xx failure envelope and nothing is written.
import { expect, it } from 'vitest';
import { loadManifestDir } from '../../server/manifests.ts';
import { forEachDialect } from './harness.ts';

const manifests = loadManifestDir('schemas');
const routes = manifests.flatMap((m) => Object.values(m.actions).map((a) => ({ method: a.method, path: a.path })));
routes.push({ method: 'POST', path: '/v1/user/login' }, { method: 'POST', path: '/v1/user/logout' });
const tables = manifests.filter((m) => m.table && m.provides !== 'audit-log').map((m) => m.table!);

const huge = 'x'.repeat(10 * 1024);
const queries: Record<string, string>[] = [
  { id: 'abc' },
  { id: '1', page: '-1' },
  { name: huge, maxVersion: huge, email: huge, password: huge, role: huge },
  { unknownField: '1' },
  { __proto__x: '1', constructor: 'x' },
  { sortBy: "name; drop table users" },
  { email: `${huge}@x.io`, password: 'long-enough-1', role: 'admin' },
];
const bodies: string[] = [
  '{"email": "a@b.c", "password": ',
  '[1,2,3]',
  '"just a string"',
  '{"__proto__": {"isAdmin": true}}',
  '{"constructor": {"prototype": {"x": 1}}}',
  JSON.stringify({ email: huge, password: huge }),
  JSON.stringify({ email: 7, password: false, extra: 'field' }),
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
        expect(reply.body).toEqual({ result: false, message: expect.any(String) });
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
        expect(reply.body).toEqual({ result: false, message: expect.any(String) });
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
