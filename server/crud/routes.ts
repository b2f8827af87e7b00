// Registers every action of every manifest at its exact method and path, behind its role rule. The role is
// checked when the request arrives, before any body is read, and each call reads no more body than it needs.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BEFORE_ROUTES } from '../core/plugin-tree.ts';
import type { ActionDecl, Manifest } from '../../kernel/manifest/types.ts';
import { AppError } from '../errors.ts';
import { requireRoles, type AuthUser } from '../plugins/auth.ts';
import { publicCallGate } from '../plugins/public-rate-limit.ts';
import { clientIp } from '../plugins/address-key.ts';
import { readMultipart, removeStagedUploads } from '../plugins/uploads.ts';
import type { CustomHandler } from '../core/context.ts';
import type { Engine } from '../core/context.ts';
import { buildHandler } from './handlers.ts';
import { checkRegistered } from './registry.ts';
import { PREPARED, inputOf, routeValidation } from '../core/input.ts';
import { inputSource } from '../contract/route-schema.ts';
import { JsonBytes } from '../core/json-bytes.ts';
import { noteListCall } from '../db/read-pool.ts';
import { routeSchemaOf } from '../contract/route-schema.ts';
import { inputRulesOf } from './kinds/input-rules.ts';
import { takeUploads } from './files.ts';



/** A call that takes its input from the query string carries no body. */
export const QUERY_BODY_LIMIT = 1024;
/** Key fields only (a toggle): `{"id": 5}`. */
export const KEY_BODY_LIMIT = 4 * 1024;
/** A record: strings are capped at 2000 characters, JSON values are small documents. */
export const RECORD_BODY_LIMIT = 256 * 1024;

/** The largest body a call accepts (413 above it); a custom handler may declare its own (the IP import). */
export function bodyLimitOf(action: ActionDecl, customHandlers: Record<string, CustomHandler>): number {
  if (action.kind === 'custom' && customHandlers[action.handler!]?.bodyLimit) return customHandlers[action.handler!].bodyLimit!;
  if (inputSource(action) === 'query') return QUERY_BODY_LIMIT;
  if (action.kind === 'toggle' || action.kind === 'destroy') return KEY_BODY_LIMIT;
  return RECORD_BODY_LIMIT;
}

/** True when the call changes something (so a HEAD request must never run it); a device call may write too. */
export const writes = (action: ActionDecl, customHandlers: Record<string, CustomHandler>) =>
  action.kind === 'custom' ? !!(customHandlers[action.handler!]?.write || customHandlers[action.handler!]?.public) : action.kind !== 'list';

const titlesOf = (props: Record<string, { title?: string }> | undefined) =>
  Object.fromEntries(Object.entries(props ?? {}).map(([field, schema]) => [field, schema.title ?? field]));

/** The call's contract; a GET that writes says its HEAD is refused. */
function schemaOf(manifest: Manifest, name: string, writing: boolean) {
  const schema = routeSchemaOf(manifest, name);
  if (manifest.actions[name].method === 'GET' && writing) schema.description += '\n\nA GET that writes: HEAD is refused with 405 ERR_METHOD.';
  return schema;
}

export interface CrudOptions {
  /** DATA_DIR: uploaded files live under it. */
  dataDir: string;
  /** Rows a list counts exactly before answering a capped count (LIST_COUNT_LIMIT, server/crud/list-query.ts). */
  listCountLimit?: number;
}

/** What the manifests' routes use of the server: the crud plugin builds it from the decorations it depends on. */
export type CrudContext = Pick<Engine, 'db' | 'caps' | 'health' | 'log' | 'models' | 'accounts' | 'audit' | 'live' | 'changes' | 'actions' | 'reads' | 'dataDir' | 'listCountLimit'>;

export function registerCrudRoutes(app: FastifyInstance, engine: CrudContext, manifests: Manifest[]): void {
  for (const manifest of manifests) {
    const model = engine.models.get(manifest.entity);
    for (const [name, action] of Object.entries(manifest.actions)) {
      const handler = buildHandler(engine, model, name, action);
      const source = inputSource(action);
      const readBody = action.kind === 'custom' ? engine.actions.registered.handlers[action.handler!]?.readBody : undefined;
      const fieldCount = Object.keys(model?.props ?? (action.inputSchema as { properties?: object } | undefined)?.properties ?? {}).length;
      const validation = routeValidation(inputRulesOf(engine, model, action));
      app.route({
        method: action.method,
        url: action.path,
        schema: schemaOf(manifest, name, writes(action, engine.actions.registered.handlers)),
        // Fastify checks the input with the route's schema, read as the call's kind reads it (server/crud/kinds/input-rules.ts).
        validatorCompiler: validation.compiler,
        bodyLimit: bodyLimitOf(action, engine.actions.registered.handlers),
        // A handler that reads its own body gets its bytes (server/plugins/json-body.ts).
        config: { jsonBytes: !!readBody && source === 'json' },
        // Fastify answers HEAD with the GET handler: for a GET that writes, that would run the write.
        exposeHeadRoute: !writes(action, engine.actions.registered.handlers),
        // A public (device) call: no role rule, a token sent is ignored, the per-address limit instead.
        onRequest: action.public ? publicCallGate(app) : requireRoles(action.roles),
        ...(source === 'multipart'
          ? {
              preValidation: [
                readMultipart(engine.dataDir, { files: manifest.storage?.files ?? {}, fields: fieldCount, titles: titlesOf(model?.props) }),
                // The form as a plain object, its files taken by their rules (a JSON file fills its field) before the schema.
                async (request: FastifyRequest) => {
                  const input = inputOf(request.body, 'multipart');
                  const files = model ? await takeUploads(model, input) : new Map<string, Buffer>();
                  request.body = Object.assign(input, { [PREPARED]: files });
                },
              ],
              onSend: removeStagedUploads,
            }
          : {}),
        handler: async (request) => {
          if (action.kind === 'list') noteListCall();
          const read = readBody && request.body instanceof JsonBytes ? await readBody(request.body) : undefined;
          try {
            // A body its handler reads itself is checked once read, by the route's own validator.
            const input = read ? validation.check(read.input) : ((source === 'query' ? request.query : request.body) as Record<string, unknown>);
            const files = (input as { [PREPARED]?: Map<string, Buffer> })[PREPARED];
            const actor = (action.public ? null : request.user) as AuthUser;
            // The origin only when read (the device lookup with PUBLIC_URL never does): behind TRUSTED_PROXIES each of
            // protocol and host asks the proxy rule about the socket's address again.
            const client = {
              ip: clientIp(request),
              get origin() {
                return `${request.protocol}://${request.host}`;
              },
            };
            const data = await handler({ input, source, actor, path: action.path, entity: manifest.entity, client, files });
            return { result: true, data };
          } finally {
            await read?.end();
          }
        },
      });
      if (action.method === 'GET' && writes(action, engine.actions.registered.handlers)) {
        // Left out of /openapi.json: the GET's description says HEAD is refused with 405.
        app.head(action.path, { schema: { hide: true } }, async (_request, reply) => {
          reply.header('allow', 'GET');
          throw new AppError(405, 'HEAD never runs a call that writes; send GET', undefined, undefined, 'ERR_METHOD');
        });
      }
    }
  }
}

/**
 * The `crud` plugin: every call of every manifest. After `auth` (request.user, the role rules), `uploads` (multipart),
 * `public-rate-limit` (the public calls' gate) and `device` (whose onRoute hook wraps the lookup's routes).
 */
export const crudPlugin = fp(
  async (app: FastifyInstance, options: CrudOptions) => {
    // Every folder with named handlers has registered them (the dependencies below): a manifest naming one nobody
    // registered stops the start here, before any route.
    checkRegistered(app.manifests, app.serverActions.registered);
    const context: CrudContext = {
      db: app.db,
      caps: app.caps,
      health: app.health,
      log: app.log,
      models: app.models,
      accounts: app.accounts,
      audit: app.audit,
      live: app.live,
      changes: app.changes,
      actions: app.serverActions,
      reads: app.reads,
      dataDir: options.dataDir,
      listCountLimit: options.listCountLimit,
    };
    registerCrudRoutes(app, context, app.manifests);
  },
  {
    name: 'crud',
    // The plugins that register named handlers (`actions`, `device`, `gitlab-actions`) come first.
    dependencies: ['handlers', 'actions', 'device', 'gitlab-actions', 'auth', 'uploads', 'public-rate-limit', ...BEFORE_ROUTES],
    decorators: { fastify: ['db', 'caps', 'health', 'reads', 'models', 'accounts', 'audit', 'live', 'changes', 'serverActions', 'manifests', 'publicBuckets'] },
    fastify: '5.x',
  },
);
