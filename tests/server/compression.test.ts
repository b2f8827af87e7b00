// Answers go out compressed when the client accepts it (brotli or gzip), from 1 KiB on: the API docs, a list,
// a CSV export. Small answers, uploaded binaries and compressed request bodies are left alone.
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { forEachDialect } from './harness.ts';

forEachDialect('Compressed answers', (h) => {
  const get = (url: string, encoding: string, token = h.tokens.admin) =>
    h.app.inject({ url, headers: { 'accept-encoding': encoding, authorization: `Bearer ${token}` } });

  it('sends /docs and /openapi.json in brotli to a browser that accepts it, and the text is the same', async () => {
    for (const url of ['/docs', '/openapi.json']) {
      const plain = await h.app.inject({ url });
      const packed = await get(url, 'gzip, deflate, br');
      expect(packed.headers['content-encoding']).toBe('br');
      expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(brotliDecompressSync(packed.rawPayload).toString()).toBe(plain.body);
    }
  });

  it('sends a list of 50 users and a CSV export in gzip to a client that only accepts gzip', async () => {
    for (let i = 0; i < 50; i++) {
      const added = await h.admin('GET', '/v1/admin/user/add', { query: { email: `packed-${i}@test.io`, password: 'packed-password-1', role: 'tester' } });
      expect(added.status).toBe(200);
    }
    const list = await get('/v1/admin/user/get?pageSize=100', 'gzip');
    expect(list.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(list.rawPayload).toString()).data.rows.length).toBeGreaterThanOrEqual(50);
    const csv = await get('/v1/admin/user/get/export.csv', 'gzip');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(csv.rawPayload).toString()).toContain('packed-49@test.io');
  });

  it('leaves a small answer and a client that accepts no encoding uncompressed', async () => {
    const health = await get('/healthz', 'gzip, br');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json().result).toBe(true);
    const docs = await h.app.inject({ url: '/docs' });
    expect(docs.headers['content-encoding']).toBeUndefined();
  });

  it('never inflates a compressed request body: a gzip-encoded login is refused, not read', async () => {
    const body = gzipSync(JSON.stringify({ email: 'admin@test.io', password: 'admin-password-1' }));
    const refused = await h.app.inject({
      method: 'POST',
      url: '/v1/user/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: body,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().result).toBe(false);
  });
});
