// /openapi.json describes every API route the server registers, as a valid OpenAPI 3.1 document read from the
// routes' own schemas (roles, list parameters, typed answers, error codes), and /docs shows it as a page without any script.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouteOptions } from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, it } from 'vitest';
import { loadManifestDir } from '../../server/manifests.ts';
import { ERROR_CODES } from '../../server/error-codes.ts';
import { forEachDialect, startApp } from './harness.ts';

const distDir = mkdtempSync(join(tmpdir(), 'openapi-dist-'));
writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>panel</title>');
const registered: { method: string; url: string }[] = [];
const collect = (route: RouteOptions) => {
  for (const method of [route.method].flat()) registered.push({ method: String(method), url: route.url! });
};
const manifests = loadManifestDir('schemas');

type Doc = { openapi: string; paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };

/** Fastify's `/a/:b` and `/a/*` as OpenAPI's `/a/{b}` and `/a/{path}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');
/** The routes that are not part of the API: the panel's own files and these docs. */
const NOT_API = /^\/(?:$|\*|assets\/|openapi\.json|docs|socket\.io|favicon|index\.html|manifest|sw\.js|robots)/;

forEachDialect(
  'API description',
  (h) => {
    const load = async () => (await h.app.inject({ url: '/openapi.json' })).json() as Doc;

    it('describes every API route the server registers, at its method and path', async () => {
      const doc = await load();
      expect(registered.length).toBeGreaterThan(50);
      const missing = registered.filter(({ method, url }) => {
        if (NOT_API.test(url) || !url.startsWith('/')) return false;
        const item = doc.paths[openApiPath(url)];
        // HEAD is never documented: Fastify answers it for a GET that only reads, and a GET that writes refuses it (its description says so).
        if (method === 'HEAD') return !item?.get;
        return !item?.[method.toLowerCase()];
      });
      expect(missing).toEqual([]);
      for (const path of ['/v1/user/login', '/v1/user/logout', '/v1/gitlab/webhook', '/v1/admin/platform/get/export.csv', '/whitelabels/{path}', '/builds/{path}', '/healthz', '/config.json']) {
        expect(Object.keys(doc.paths), path).toContain(path);
      }
      expect(doc.paths['/v1/admin/build/reload'].get.description).toContain('HEAD is refused with 405 ERR_METHOD');
    });

    it('is a valid OpenAPI 3.1 document', async () => {
      const validator = new Validator();
      const result = await validator.validate(await load());
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    });

    it('gives every manifest call its roles, its list parameters, a typed answer and the failure envelope', async () => {
      const doc = await load();
      const dataOf = (op: any) => op.responses['200'].content['application/json'].schema.properties.data;
      for (const manifest of manifests) {
        for (const action of Object.values(manifest.actions)) {
          const op = doc.paths[action.path][action.method.toLowerCase()];
          expect(op['x-roles'], action.path).toEqual(action.public ? [] : action.roles);
          expect(dataOf(op).type, action.path).toBeTruthy();
          expect(op.responses['4XX'].content['application/json'].schema.properties.code).toEqual({ $ref: '#/components/schemas/ErrorCode' });
        }
      }
      const list = doc.paths['/v1/admin/platform/get'].get;
      expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'pageSize', 'sortBy', 'sortOrder', 'after', 'name']));
      const row = dataOf(list).properties.rows.items;
      expect(row.required).toEqual(expect.arrayContaining(['id', 'name']));
      expect(doc.components.schemas.ErrorCode.enum).toEqual(Object.keys(ERROR_CODES));
      // Secrets are never answered, so the user record has no password; a caller sends one.
      expect(dataOf(doc.paths['/v1/admin/user/get'].get).properties.rows.items.properties).not.toHaveProperty('password');
      expect(doc.paths['/v1/admin/user/add'].get.parameters.map((p: { name: string }) => p.name)).toContain('password');
      // The device lookup: `platform` is JSON in the query string (SPEC), and the answer names the rule that matched.
      const lookup = doc.paths['/v1/combination/get'].get;
      expect(lookup.parameters.find((p: { name: string }) => p.name === 'platform').content['application/json'].schema.properties.name.type).toBe('string');
      expect(dataOf(lookup).required).toContain('matchedBy');
      expect(dataOf(lookup).properties.matchedBy.enum).toEqual(['device', 'ip', 'experiment', 'published', 'latest']);
    });

    it('shows the same as a page with no script, under a policy that allows only its own style', async () => {
      const reply = await h.app.inject({ url: '/docs' });
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toContain('text/html');
      expect(reply.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
      expect(reply.body).not.toMatch(/<script|javascript:|(src|href)=["']?(https?:)?\/\//i);
      for (const path of ['/v1/admin/platform/get', '/v1/combination/get', '/v1/user/login', '/v1/gitlab/webhook']) expect(reply.body).toContain(`>${path}<`);
      for (const code of Object.keys(ERROR_CODES)) expect(reply.body).toContain(`id="code-${code}"`);
      // One record of each listed entity, with its fields: a platform's name and its maximum version.
      const records = reply.body.slice(reply.body.indexOf('<section id="schemas">'));
      for (const m of manifests.filter((m) => Object.values(m.actions).some((a) => a.kind === 'list'))) expect(records).toContain(`id="schema-${m.entity}"`);
      const platform = records.slice(records.indexOf('id="schema-platform"'));
      expect(platform.slice(0, platform.indexOf('</details>'))).toMatch(/<code>name<\/code>[\s\S]*<code>maxVersion<\/code>/);
    });

    it('is not served on a host outside the panel hosts', async () => {
      const reply = await h.app.inject({ url: '/openapi.json', headers: { host: 'evil.example.net' } });
      expect(reply.statusCode).toBe(403);
    });
  },
  { config: { distDir }, onRoute: collect },
);

it('serves neither the document nor the page with API_DOCS=off', async () => {
  const { app, cleanup } = await startApp('sqlite', { config: { apiDocs: false } });
  try {
    expect((await app.inject({ url: '/openapi.json' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/docs' })).statusCode).toBe(404);
  } finally {
    await app.close();
    await cleanup();
  }
});
