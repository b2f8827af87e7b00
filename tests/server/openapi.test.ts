// /openapi.json describes every route the server registers, as a valid OpenAPI 3.1 document derived from the
// manifests (roles, list parameters, error codes), and /docs shows it as a page without any script.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouteOptions } from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, it } from 'vitest';
import { loadManifestDir } from '../../server/manifests.ts';
import { openApiPath } from '../../server/openapi/document.ts';
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

forEachDialect(
  'API description',
  (h) => {
    const load = async () => (await h.app.inject({ url: '/openapi.json' })).json() as Doc;

    it('describes every route the server registers, at its method and path', async () => {
      const doc = await load();
      expect(registered.length).toBeGreaterThan(50);
      const missing = registered.filter(({ method, url }) => {
        const item = doc.paths[openApiPath(url)];
        // Fastify answers HEAD for every GET that only reads; a GET that writes has its own refusing HEAD.
        if (method === 'HEAD') return !item?.head && !item?.get;
        return !item?.[method.toLowerCase()];
      });
      expect(missing).toEqual([]);
    });

    it('is a valid OpenAPI 3.1 document', async () => {
      const validator = new Validator();
      const result = await validator.validate(await load());
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    });

    it("gives every manifest call its roles, its list parameters and its failures' codes", async () => {
      const doc = await load();
      for (const manifest of manifests) {
        for (const action of Object.values(manifest.actions)) {
          const op = doc.paths[action.path][action.method.toLowerCase()];
          expect(op['x-roles'], action.path).toEqual(action.public ? [] : action.roles);
          expect(op.responses['200'], action.path).toBeTruthy();
          if (!action.public) expect(op.responses['403'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['ERR_ROLE']);
        }
      }
      const list = doc.paths['/v1/admin/platform/get'].get;
      expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'pageSize', 'sortBy', 'sortOrder', 'name']));
      expect(list.responses['200'].content['application/json'].schema.properties.data.properties.rows.items).toEqual({ $ref: '#/components/schemas/platform' });
      const edit = doc.paths['/v1/admin/platform/edit'].get;
      expect(edit.responses['409'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(expect.arrayContaining(['ERR_CONFLICT', 'ERR_UNIQUE']));
      expect(doc.components.schemas.ErrorCode.enum).toEqual(Object.keys(ERROR_CODES));
      // Secrets are never answered, so the user record has no password.
      expect(doc.components.schemas.user.properties).not.toHaveProperty('password');
      expect(doc.paths['/v1/admin/user/add'].get.parameters.map((p: { name: string }) => p.name)).toContain('password');
    });

    it('shows the same as a page with no script, under a policy that allows only its own style', async () => {
      const reply = await h.app.inject({ url: '/docs' });
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toContain('text/html');
      expect(reply.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
      expect(reply.body).not.toMatch(/<script|javascript:|(src|href)=["']?(https?:)?\/\//i);
      for (const path of ['/v1/admin/platform/get', '/v1/combination/get', '/v1/user/login', '/v1/gitlab/webhook']) expect(reply.body).toContain(`>${path}<`);
      for (const code of Object.keys(ERROR_CODES)) expect(reply.body).toContain(`id="code-${code}"`);
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
