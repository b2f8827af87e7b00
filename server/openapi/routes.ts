// The API's description, read from the routes themselves: @fastify/swagger collects every registered route's
// schema (the manifests' calls: server/contract/route-schema.ts; login, logout, the webhook, exports:
// server/contract/system-routes.ts) into GET /openapi.json (OpenAPI 3.1), and GET /docs renders the same as a
// page. Both are panel paths: only the panel's hosts get them; API_DOCS=off leaves them out.
import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BEFORE_ROUTES } from '../core/plugin-tree.ts';
import type { Manifest } from '../../kernel/manifest/types.ts';
import { ERROR_CODES } from '../error-codes.ts';
import { ROLES } from '../../kernel/roles.ts';
import { FAILURES } from '../contract/route-schema.ts';
import { docsPage } from './page.ts';

/** The page may only style itself: no script, no other origin, no framing. */
export const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

type Json = Record<string, any>;

const packageVersion = () => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface ContractOptions {
  manifests: Manifest[];
  /** URL folders of stored files (`whitelabels`, `builds`), served at /<folder>/<path> by @fastify/static. */
  fileFolders: string[];
}

const SYSTEM_TAGS: Record<string, string> = {
  session: 'Log in and out: the token every staff call sends',
  gitlab: "GitLab's pipeline webhook",
  files: 'Stored files (uploads and builds), served to anyone: devices load them',
  system: "The panel's settings and the server's liveness",
};

/** The stored files' folders: @fastify/static serves them (its routes carry no schema), so they are described here. */
function filePaths(folders: string[]): Json {
  const failure = { description: 'a path outside the folder (400 ERR_MALFORMED) or no such file (404 ERR_NOT_FOUND)', content: { 'application/json': { schema: FAILURES['4xx'] } } };
  return Object.fromEntries(
    folders.map((folder) => [
      `/${folder}/{path}`,
      {
        get: {
          operationId: `files.${folder}`,
          tags: ['files'],
          summary: `A stored file under /${folder}/`,
          description: 'Any host, no token (devices load them). Answered as a sandboxed document, never run as the panel; ETag, Last-Modified and Range are honoured.',
          security: [],
          parameters: [{ name: 'path', in: 'path', required: true, description: 'the file path below the folder (may hold /)', schema: { type: 'string' } }],
          responses: { '200': { description: 'the file', content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }, '4XX': failure },
        },
      },
    ]),
  );
}

/** The roles of each manifest call by its operationId (`x-roles`, as the /docs page shows them). */
const rolesOf = (manifests: Manifest[]) =>
  new Map<string, readonly string[]>(manifests.flatMap((m) => Object.entries(m.actions).map(([name, a]) => [`${m.entity}.${name}`, a.public ? [] : a.roles] as const)));

/** Every failure's `code` as the one ErrorCode enum (server/error-codes.ts), and each call's `x-roles`. */
function markCodesAndRoles(document: Json, manifests: Manifest[]): void {
  const roles = rolesOf(manifests);
  document.components.schemas = {
    ...document.components.schemas,
    ErrorCode: {
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: Object.entries(ERROR_CODES).map(([code, { status, text }]) => `\`${code}\` (${status}): ${text}`).join('\n\n'),
    },
  };
  for (const item of Object.values(document.paths as Json)) {
    for (const op of Object.values(item as Json) as Json[]) {
      const exportOf = String(op.operationId ?? '').replace(/\.export$/, '');
      if (roles.has(exportOf)) op['x-roles'] = roles.get(exportOf);
      else if (op.operationId === 'user.logout') op['x-roles'] = [...ROLES];
      for (const [status, response] of Object.entries(op.responses ?? {}) as [string, Json][]) {
        const media = response.content?.['application/json'];
        if (/^[45]/.test(status) && media?.schema?.properties?.code) {
          media.schema = { ...media.schema, properties: { ...media.schema.properties, code: { $ref: '#/components/schemas/ErrorCode' } } };
        }
      }
    }
  }
}

/**
 * Registers @fastify/swagger, before any route, so it sees every route registered after it. Routes without a
 * schema (the panel's files, these two) are left out of the document.
 */
export async function registerContract(app: FastifyInstance, { manifests, fileFolders }: ContractOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'White-label admin panel API',
        version: packageVersion(),
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: { name: 'The panel team' },
        description:
          'Read from the routes: each is registered with its schema, which checks nothing twice and serializes its answers. Every call answers ' +
          '`{"result": true, "data": ...}` with 200, or `{"result": false, "message", "code"}` with its status (input errors add `fields`, every bad ' +
          'field at once). Staff calls need the token of `POST /v1/user/login` in the `Authorization` header; `x-roles` (and the description) of ' +
          'each call names the roles that may use it. A GET that writes refuses HEAD with 405 ERR_METHOD. A live socket (socket.io, path `/socket.io`) ' +
          'sends `dataQueue` items; see docs/manifests.md. ' +
          'the `code` of every failure is one of ErrorCode (below; docs/manifests.md, "Error codes").',
      },
      servers: [{ url: '/', description: 'this server' }],
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'the token of POST /v1/user/login, alone or as `Bearer <token>`' } },
      },
    },
    transform: ({ schema, url }) => ({ schema: (schema ?? { hide: true }) as never, url }),
    transformObject: (documentObject) => {
      // A copy: the document shares its schema objects with the routes, whose serializers must not see these changes.
      const document = structuredClone((documentObject as { openapiObject: Json }).openapiObject);
      document.paths = { ...document.paths, ...filePaths(fileFolders) };
      const used = new Set<string>();
      for (const item of Object.values(document.paths as Json)) for (const op of Object.values(item as Json)) for (const tag of (op as Json).tags ?? []) used.add(tag);
      const described = new Map<string, string>(manifests.map((m) => [m.entity, [m.title, m.description].filter(Boolean).join(': ')]));
      document.tags = [...used].sort().map((name) => ({ name, description: described.get(name) ?? SYSTEM_TAGS[name] ?? name }));
      markCodesAndRoles(document, manifests);
      return document;
    },
  });
}

/** GET /openapi.json and GET /docs, from the document @fastify/swagger builds of the registered routes. */
export function registerApiDocs(app: FastifyInstance): void {
  let page: string | undefined;
  app.get('/openapi.json', async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()));
  app.get('/docs', async (_request, reply) => {
    page ??= docsPage(app.swagger() as unknown as Json);
    return reply.header('content-security-policy', DOCS_CSP).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
}

/**
 * The `contract` plugin: @fastify/swagger, before every route of the API (BEFORE_ROUTES), since it documents the routes
 * registered after it. `enabled` false (API_DOCS=off): nothing registers.
 */
export const contractPlugin = fp(
  async (app: FastifyInstance, options: ContractOptions & { enabled: boolean }) => {
    if (options.enabled) await registerContract(app, options);
  },
  { name: 'contract', fastify: '5.x' },
);

/** The `docs` plugin: GET /openapi.json and /docs, read from `contract`'s document (nothing when it is off). */
export const docsPlugin = fp(
  async (app: FastifyInstance, options: { enabled: boolean }) => {
    if (options.enabled) registerApiDocs(app);
  },
  { name: 'docs', dependencies: BEFORE_ROUTES, fastify: '5.x' },
);
