// Serves the API's description: GET /openapi.json (OpenAPI 3.1, built from the manifests once, at the first
// request) and GET /docs (the same as a page). Both are panel paths: only the panel's hosts get them, like the
// panel whose bundle already carries every manifest; API_DOCS=off leaves them out.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Manifest } from '../../kernel/manifest/types.ts';
import { openApiDocument, type DocumentOptions } from './document.ts';
import { docsPage } from './page.ts';

/** The page may only style itself: no script, no other origin, no framing. */
export const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const packageVersion = () => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function registerApiDocs(app: FastifyInstance, manifests: Manifest[], options: Omit<DocumentOptions, 'version'>): void {
  let document: Record<string, unknown> | undefined;
  let page: string | undefined;
  const built = () => (document ??= openApiDocument(manifests, { ...options, version: packageVersion() }));
  app.get('/openapi.json', async (_request, reply) => reply.header('cache-control', 'no-cache').send(built()));
  app.get('/docs', async (_request, reply) => {
    page ??= docsPage(built());
    return reply.header('content-security-policy', DOCS_CSP).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
}
