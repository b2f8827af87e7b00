// Builds the whole server from the manifests: database, tables, routes, auth, audit, live socket, panel.
// Tests call buildApp() and use inject(); server/main.ts calls it and listens.
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { loadConfig, type Config } from './config.ts';
import { loadManifestDir } from './manifests.ts';
import { buildModel, type EntityModel } from './model/model.ts';
import { plant, registerPlugins } from './core/plugin-tree.ts';
import { crudPlugin } from './crud/routes.ts';
import { exportsPlugin } from './crud/export.ts';
import { recoverFiles } from './crud/file-journal.ts';
import { actionsPlugin } from './actions/plugin.ts';
import { gitlabActionsPlugin } from './actions/gitlab.ts';
import { registryPlugin } from './crud/registry.ts';
import type { ServerActions } from './core/context.ts';
import { devicePlugin } from './actions/device/plugin.ts';
import { auditPlugin } from './plugins/audit.ts';
import { authPlugin, checkAccountsModel } from './plugins/auth.ts';
import { liveHubPlugin, livePlugin } from './plugins/live.ts';
import { availableHosts, panelPlugin } from './plugins/panel.ts';
import { uploadsPlugin } from './plugins/uploads.ts';
import { BUILDS_FOLDER } from './builds/builds.ts';
import { assetsPlugin, uploadFolders } from './plugins/assets.ts';
import { gitlabPlugin } from './gitlab/pipelines.ts';
import { browserSecurityPlugin } from './plugins/browser-security.ts';
import type { AttemptLimits } from './plugins/rate-limit.ts';
import { loggerOptions, type LogDestination } from './logging.ts';
import { publicRateLimitPlugin } from './plugins/public-rate-limit.ts';
import { changesPlugin } from './plugins/change-bridge.ts';
import { bodiesPlugin } from './plugins/json-body.ts';
import { contractPlugin, docsPlugin } from './openapi/routes.ts';
import { corsPlugin, compressPlugin } from './plugins/http.ts';
import { manifestsPlugin } from './plugins/manifests.ts';
import { dbPlugin } from './plugins/database.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { enginePlugin } from './plugins/engine.ts';

export interface BuildOptions {
  config?: Partial<Config>;
  loginLimits?: AttemptLimits;
  logger?: boolean | LogDestination;
  /** Where operational events (a database outage starting and ending) are reported; stderr by default. */
  log?: (line: string) => void;
  /**
   * Custom handlers, checks, hooks and value sources registered beside this application's own (server/actions,
   * its device and gitlab parts register theirs from their own plugins); a name registered twice stops the start.
   */
  actions?: Partial<ServerActions>;
  /** Told of every route as it is registered (tests check that /openapi.json describes them all). */
  onRoute?: (route: RouteOptions) => void;
}

/** Largest body of a call that sets no limit of its own (login, logout); the manifests' calls size theirs. */
export const BODY_LIMIT = 16 * 1024;
/** How long a plugin of the start (the database above all) may take before the start stops as hung. */
export const START_TIMEOUT_MS = 5 * 60_000;

/**
 * @example const app = await buildApp({ config: { dataDir: '/tmp/x' } }); await app.inject({ url: '/healthz' });
 */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...loadConfig(), ...options.config };
  // Checked before anything opens: a PANEL_HOSTS entry that is no host name stops the start.
  const panelHosts = availableHosts(config);
  const manifests = loadManifestDir(config.schemasDir);
  const models = new Map<string, EntityModel>();
  for (const m of manifests) if (m.table) models.set(m.entity, buildModel(m));
  const accounts = [...models.values()].find((m) => m.manifest.provides === 'accounts');
  if (!accounts) throw new Error('No manifest provides "accounts"');
  checkAccountsModel({ accounts });
  const app = Fastify({
    logger: loggerOptions(options.logger),
    bodyLimit: BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // request.ip follows X-Forwarded-For only through the listed proxies; otherwise every user behind an
    // untrusted hop could pick their own address (and their own rate-limit bucket).
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    // Fastify's default gives a plugin 10 s, and the database's start (schema, migrations, the first admin) can take
    // longer: it waits for another process starting on the same PostgreSQL, and a busy machine took more than 10 s for
    // a fresh SQLite file (the server then stopped with "Plugin did not start in time: 'db'"). A start still not done
    // after this long has hung, and stops naming the plugin.
    pluginTimeout: START_TIMEOUT_MS,
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  const fileFolders = [...uploadFolders(manifests), BUILDS_FOLDER];
  const apiDocs = config.apiDocs !== false;
  const sessions = { idleMs: config.sessionIdleMs, lifetimeMs: config.sessionLifetimeMs };
  // The server's plugins, as a set: each declares its name and what it depends on (docs/reference.md, "The server's
  // plugins"), and registerPlugins derives the order (server/core/plugin-tree.ts). Ties go in the order listed.
  // A start stopped part way (a manifest naming a handler nobody registered, found once the database is open) closes
  // what the plugins before it opened: the database, its guard, the pollers.
  await registerPlugins(app, [
    plant(bodiesPlugin, {}),
    plant(manifestsPlugin, { manifests, models, accounts }),
    plant(dbPlugin, {
      database: { ...config, log: options.log },
      admin: { email: config.adminEmail, password: config.adminPassword },
      // Files and rows agree before the first request: interrupted writes are finished or undone.
      recover: ({ db, models: tables }) => recoverFiles({ db, models: tables, dataDir: config.dataDir }, uploadFolders(manifests)),
    }),
    plant(auditPlugin, {}),
    plant(liveHubPlugin, {}),
    plant(changesPlugin, { databaseUrl: config.databaseUrl }),
    plant(registryPlugin, { dataDir: config.dataDir, extra: options.actions }),
    plant(actionsPlugin, {}),
    plant(gitlabActionsPlugin, {}),
    // For the tests, benchmarks and scripts that reach into the app (nothing in the server reads it).
    plant(enginePlugin, { dataDir: config.dataDir, sessions, listCountLimit: config.listCountLimit }),
    plant(corsPlugin, { origins: config.corsOrigins }),
    plant(compressPlugin, {}),
    plant(browserSecurityPlugin, { panelHosts, publicUrl: config.publicUrl, filePrefixes: fileFolders.map((f) => `/${f}/`) }),
    plant(uploadsPlugin, {}),
    plant(panelPlugin, config),
    plant(errorsPlugin, {}),
    plant(contractPlugin, { enabled: apiDocs, manifests, fileFolders }),
    plant(authPlugin, { limits: options.loginLimits, sessions }),
    plant(publicRateLimitPlugin, {
      limit: config.publicRateLimit,
      shared: config.redisUrl ? { url: config.redisUrl, prefix: config.redisPrefix, log: options.log } : undefined,
    }),
    plant(devicePlugin, { publicUrl: config.publicUrl, panelHosts, writes: config.deviceWrites }),
    plant(crudPlugin, { dataDir: config.dataDir, listCountLimit: config.listCountLimit }),
    plant(exportsPlugin, { listCountLimit: config.listCountLimit }),
    plant(assetsPlugin, { dataDir: config.dataDir, folders: fileFolders }),
    plant(livePlugin, {
      panelHosts,
      corsOrigins: config.corsOrigins,
      redis: config,
      sessions,
      limits: { socketsPerSession: config.liveSocketsPerSession, eventsPerSecond: config.liveEventsPerSecond },
    }),
    plant(gitlabPlugin, { gitlab: config.gitlab }),
    plant(docsPlugin, { enabled: apiDocs }),
  ]).catch(async (error: unknown) => {
    await app.close().catch(() => undefined);
    throw error;
  });
  return app;
}
