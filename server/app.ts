// Builds the whole server from the manifests: database, tables, routes, auth, audit, live socket, panel.
// Tests call buildApp() and use inject(); server/main.ts calls it and listens.
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import cors from '@fastify/cors';
import compress from '@fastify/compress';
import { loadConfig, type Config } from './config.ts';
import { installErrorHandlers } from './errors.ts';
import { loadManifestDir } from './manifests.ts';
import { openDatabase } from './db/database.ts';
import { syncSchema } from './db/sync.ts';
import { noteCall, readsFor } from './db/read-pool.ts';
import { runMigrations } from './migrations/index.ts';
import { buildModel, type EntityModel } from './model/model.ts';
import type { Engine } from './core/context.ts';
import { registerCrudRoutes } from './crud/routes.ts';
import { registerCsvExports } from './crud/export.ts';
import { checkPublicActions, serverActions, type ServerActions } from './actions/index.ts';
import { createAuditLog, registerRefusalAudit } from './plugins/audit.ts';
import { checkAccountsModel, ensureFirstAdmin, registerAuth } from './plugins/auth.ts';
import { createLiveHub, liveAudiences } from './core/live-hub.ts';
import { createChangeFeed } from './core/changes.ts';
import { registerLive } from './plugins/live.ts';
import { registerLiveLists } from './plugins/live-lists.ts';
import { availableHosts, isApiPath, registerPanel } from './plugins/panel.ts';
import { registerUploads } from './plugins/uploads.ts';
import { BUILDS_FOLDER } from './builds/builds.ts';
import { registerAssets, uploadFolders } from './plugins/assets.ts';
import { registerGitlab } from './gitlab/pipelines.ts';
import { registerBrowserSecurity } from './plugins/browser-security.ts';
import { recoverFiles } from './crud/file-journal.ts';
import type { AttemptLimits } from './plugins/rate-limit.ts';
import { loggerOptions, type LogDestination } from './logging.ts';
import { registerPublicRateLimit } from './plugins/public-rate-limit.ts';
import { registerDeviceLookup } from './actions/device/lookup.ts';
import { registerDeviceWrites } from './actions/device/budget.ts';
import { bridgeChanges } from './plugins/change-bridge.ts';
import { whileLocked } from './db/locks.ts';
import { connectRedis } from './plugins/redis.ts';
import { registerJsonBodies } from './plugins/json-body.ts';
import { registerApiDocs, registerContract } from './openapi/routes.ts';

export interface BuildOptions {
  config?: Partial<Config>;
  loginLimits?: AttemptLimits;
  logger?: boolean | LogDestination;
  /** Where operational events (a database outage starting and ending) are reported; stderr by default. */
  log?: (line: string) => void;
  /** The application's custom handlers, checks, hooks and value sources; this application's (server/actions) by default. */
  actions?: ServerActions;
  /** Told of every route as it is registered (tests check that /openapi.json describes them all). */
  onRoute?: (route: RouteOptions) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    engine: Engine;
    /** Set when this start created the first admin; `password` only when it was generated. */
    firstAdmin?: { email: string; password?: string };
  }
}

/** Text answers worth compressing: JSON, HTML, CSV, CSS and scripts; not octet-stream (build files) nor images. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|javascript(?:;|$)/;

/** Largest body of a call that sets no limit of its own (login, logout); the manifests' calls size theirs. */
export const BODY_LIMIT = 16 * 1024;

/**
 * @example const app = await buildApp({ config: { dataDir: '/tmp/x' } }); await app.inject({ url: '/healthz' });
 */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...loadConfig(), ...options.config };
  // Checked before anything opens: a PANEL_HOSTS entry that is no host name stops the start.
  const panelHosts = availableHosts(config);
  const actions = options.actions ?? serverActions;
  const { valueSources } = actions;
  const manifests = loadManifestDir(config.schemasDir);
  const models = new Map<string, EntityModel>();
  for (const m of manifests) if (m.table) models.set(m.entity, buildModel(m));
  const accounts = [...models.values()].find((m) => m.manifest.provides === 'accounts');
  if (!accounts) throw new Error('No manifest provides "accounts"');
  for (const m of manifests) {
    for (const [name, action] of Object.entries(m.actions)) {
      for (const [role, fields] of Object.entries(action.forRole ?? {})) {
        for (const source of Object.values(fields ?? {})) {
          if (!valueSources[source]) throw new Error(`${m.entity}.actions.${name}.forRole.${role}: no value source "${source}"`);
        }
      }
    }
  }

  checkPublicActions(manifests, actions.handlers);
  const app = Fastify({
    logger: loggerOptions(options.logger),
    bodyLimit: BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // request.ip follows X-Forwarded-For only through the listed proxies; otherwise every user behind an
    // untrusted hop could pick their own address (and their own rate-limit bucket).
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
  });
  const database = openDatabase({ ...config, log: options.log });
  const reads = readsFor(config, database);
  const engine: Engine = {
    db: database.db,
    caps: database.caps,
    health: database.health,
    log: app.log,
    manifests,
    models,
    accounts,
    audit: createAuditLog([...models.values()].find((m) => m.manifest.provides === 'audit-log')),
    live: createLiveHub(liveAudiences(manifests)),
    changes: createChangeFeed(),
    dataDir: config.dataDir,
    sessions: { idleMs: config.sessionIdleMs, lifetimeMs: config.sessionLifetimeMs },
    actions,
    listCountLimit: config.listCountLimit,
    reads,
  };
  checkAccountsModel(engine);

  app.decorate('engine', engine);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  registerJsonBodies(app);
  // The list reads yield longer while the busy event loop also serves other calls (server/db/read-pool.ts).
  app.addHook('onRequest', (_request, _reply, done) => {
    noteCall();
    done();
  });
  // A call refused part way through its body (an upload past its limit) reads and drops the rest, as Node does for a
  // body never read: left paused, its connection stayed open after the answer, unnoticed when the client went
  // away, and a stop waited on it. (Closing it instead makes clients that are still sending lose the answer.)
  app.addHook('onError', (request, _reply, _error, done) => {
    if (!request.raw.complete && request.raw.isPaused()) request.raw.resume();
    done();
  });
  app.addHook('onClose', async () => {
    await reads.close();
    await database.close();
  });
  try {
    // One process at a time (several may start at once on one PostgreSQL): each table and admin is made once.
    app.firstAdmin = await whileLocked(engine.db, engine.caps, 'start', async () => {
      await syncSchema(engine.db, engine.caps, [...models.values()], config.databaseUrl);
      await runMigrations(engine.db, engine.caps);
      // Files and rows agree before the first request: interrupted writes are finished or undone.
      await recoverFiles(engine, uploadFolders(manifests));
      return ensureFirstAdmin(engine, config.adminEmail, config.adminPassword);
    });
  } catch (error) {
    await reads.close();
    await database.close();
    throw error;
  }

  if (config.corsOrigins.length) await app.register(cors, { origin: config.corsOrigins });
  // Answers, /docs and CSV exports compressed (brotli or gzip, as the client accepts) from 1 KiB on; the panel's own
  // assets are compressed at build and served as they are. Request bodies are never inflated: a compressed body
  // would slip past the body limits, which count the bytes received. Uploaded files (images, builds) are left alone.
  await app.register(compress, { globalDecompression: false, customTypes: COMPRESSIBLE });
  const fileFolders = [...uploadFolders(manifests), BUILDS_FOLDER];
  registerBrowserSecurity(app, { panelHosts, publicUrl: config.publicUrl, filePrefixes: fileFolders.map((f) => `/${f}/`) });
  await registerUploads(app);
  const hasPanel = await registerPanel(app, config);
  installErrorHandlers(app, hasPanel ? (url) => !isApiPath(url) : undefined);
  // Before every route of the API: the document is read from the routes registered after it.
  if (config.apiDocs !== false) await registerContract(app, { manifests, fileFolders });
  registerAuth(app, engine, options.loginLimits);
  registerRefusalAudit(app, engine);
  registerPublicRateLimit(app, config.publicRateLimit, config.redisUrl ? { url: config.redisUrl, prefix: config.redisPrefix, log: options.log } : undefined);
  registerDeviceLookup(app, engine, config.publicUrl, panelHosts);
  const deviceWriteBudget = registerDeviceWrites(engine, config.deviceWrites);
  app.addHook('onClose', async () => deviceWriteBudget.close());
  bridgeChanges(app, engine, config.databaseUrl);
  registerCrudRoutes(app, engine, manifests);
  registerCsvExports(app, engine, manifests);
  await registerAssets(app, config.dataDir, fileFolders);
  const io = registerLive(app, engine, {
    panelHosts,
    corsOrigins: config.corsOrigins,
    adapter: await connectRedis(app, config),
    limits: { socketsPerSession: config.liveSocketsPerSession, eventsPerSecond: config.liveEventsPerSecond },
  });
  const stopLiveLists = registerLiveLists(engine, io);
  app.addHook('onClose', async () => stopLiveLists());
  registerGitlab(app, engine, config.gitlab);
  if (config.apiDocs !== false) registerApiDocs(app);
  return app;
}
