// Reads the server's settings from the environment once; everything else receives a Config.
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres:// or postgresql:// selects PostgreSQL; otherwise SQLite at DATA_DIR/panel.sqlite. */
  databaseUrl?: string;
  publicUrl?: string;
  panelHosts?: string[];
  adminEmail?: string;
  adminPassword?: string;
  corsOrigins: string[];
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDRs); empty = the socket's address is the client's. */
  trustedProxies: string[];
  /** Public device calls per minute per client address (PUBLIC_RATE_LIMIT); see docs/device-api.md. */
  publicRateLimit: { perMinute: number; burst?: number };
  /** The device calls' writes: transactions at once and writes waiting (DEVICE_WRITES_AT_ONCE, DEVICE_WRITES_QUEUED); see server/actions/device/budget.ts. */
  deviceWrites?: { atOnce?: number; queued?: number; batch?: number; maxWaitMs?: number; share?: number };
  schemasDir: string;
  distDir: string;
  /** A session ends after this long without a call (SESSION_IDLE_TIMEOUT). */
  sessionIdleMs: number;
  /** A session ends this long after its login, however busy (SESSION_LIFETIME). */
  sessionLifetimeMs: number;
  /** PostgreSQL: time limits of opening a connection and of one statement, past which a request gets a 503. */
  dbConnectTimeoutMs?: number;
  dbStatementTimeoutMs?: number;
  /** REDIS_URL: several processes share their sockets' broadcasts through Redis (server/plugins/redis.ts). */
  redisUrl?: string;
  /** REDIS_PREFIX: the prefix of the Redis channels, so several installations can share one Redis. */
  redisPrefix: string;
  /** Rows a list call counts exactly; beyond, it answers a capped count (LIST_COUNT_LIMIT, default 10,000). */
  listCountLimit?: number;
  /** SQLite: worker threads that run list reads off the event loop (SQLITE_READ_WORKERS; 0 = none; default see server/db/read-pool.ts). */
  sqliteReadWorkers?: number;
  /** PostgreSQL: list reads one process runs at once, the rest wait (LIST_READS_AT_ONCE; default see server/db/read-pool.ts). */
  listReadsAtOnce?: number;
  /** How long a list read waits before it starts while the event loop is busy (LIST_YIELD_MS; 0 = never; default see server/db/read-pool.ts). */
  listYieldMs?: number;
  /** The same while the busy event loop also serves other calls (LIST_YIELD_SHARED_MS; 0 = LIST_YIELD_MS alone decides; default see server/db/read-pool.ts). */
  listYieldSharedMs?: number;
  /** Live sockets one session may hold on every process together (LIVE_SOCKETS_PER_SESSION; default see server/plugins/live-limits.ts). */
  liveSocketsPerSession?: number;
  /** Packets a live socket's connection may send per second, bursts of ten seconds' worth (LIVE_EVENTS_PER_SECOND; default see server/plugins/live-limits.ts). */
  liveEventsPerSecond?: number;
  /** GitLab for the Pipelines screen (server/gitlab/); any of the four settings missing = not configured. */
  gitlab: GitlabConfig;
  /** /openapi.json and /docs on the panel hosts (API_DOCS=on, the default), or not at all (off). */
  apiDocs?: boolean;
}

export interface GitlabConfig {
  /** GITLAB_URL, e.g. https://gitlab.example.com (no /api/v4). */
  url?: string;
  /** GITLAB_TOKEN: a project or personal access token with the api scope. Never logged nor answered. */
  token?: string;
  /** GITLAB_PROJECT_ID: the numeric id or the URL-encoded path (group%2Fproject). */
  projectId?: string;
  /** GITLAB_WEBHOOK_SECRET: what GitLab sends in X-Gitlab-Token with every pipeline event. */
  webhookSecret?: string;
  /** How often the poller asks GitLab about pipelines still pending or running. */
  pollMs: number;
  /** The longest wait between two looks for pipelines to follow while none runs (the wait doubles from pollMs up to it). */
  idlePollMs?: number;
  /** How long one request to GitLab may take. */
  timeoutMs: number;
}

/** Device calls one address may send at once by default: six seconds of its rate (60 at the default 600 a minute). */
export const defaultBurst = (perMinute: number) => Math.max(1, Math.round(perMinute / 10));

export const DEFAULT_SESSION_IDLE = '12h';
export const DEFAULT_SESSION_LIFETIME = '30d';

/**
 * A duration of the environment: a number with the unit s, m, h or d.
 * @example duration('12h', 'SESSION_IDLE_TIMEOUT') // 43200000
 */
export function duration(text: string, name: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/.exec(text);
  const ms = match ? Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'] : NaN;
  if (!(ms > 0)) throw new Error(`${name} is not a duration like 90s, 30m, 12h or 30d: ${text}`);
  return ms;
}

const list = (value: string | undefined) =>
  (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

function milliseconds(env: NodeJS.ProcessEnv, name: string): number | undefined {
  if (!env[name]) return undefined;
  const value = Number(env[name]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} is not a positive number of milliseconds: ${env[name]}`);
  return value;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  if (!env[name]) return undefined;
  const value = Number(env[name]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} is not a positive whole number: ${env[name]}`);
  return value;
}

/** A whole number where 0 turns the thing off. */
const wholeNumberOrOff = (env: NodeJS.ProcessEnv, name: string) => (env[name]?.trim() === '0' ? 0 : wholeNumber(env, name));

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT is not a port number: ${env.PORT}`);
  const hosts = list(env.PANEL_HOSTS);
  const perMinute = Number(env.PUBLIC_RATE_LIMIT ?? 600);
  if (!Number.isInteger(perMinute) || perMinute < 1) throw new Error(`PUBLIC_RATE_LIMIT is not a positive whole number: ${env.PUBLIC_RATE_LIMIT}`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    panelHosts: hosts.length ? hosts : undefined,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    corsOrigins: list(env.CORS_ORIGINS),
    trustedProxies: list(env.TRUSTED_PROXIES),
    publicRateLimit: { perMinute, burst: wholeNumber(env, 'PUBLIC_RATE_BURST') ?? defaultBurst(perMinute) },
    deviceWrites: { atOnce: wholeNumber(env, 'DEVICE_WRITES_AT_ONCE'), queued: wholeNumber(env, 'DEVICE_WRITES_QUEUED') },
    schemasDir: resolve(env.SCHEMAS_DIR ?? 'schemas'),
    distDir: resolve(env.DIST_DIR ?? 'dist'),
    sessionIdleMs: duration(env.SESSION_IDLE_TIMEOUT || DEFAULT_SESSION_IDLE, 'SESSION_IDLE_TIMEOUT'),
    sessionLifetimeMs: duration(env.SESSION_LIFETIME || DEFAULT_SESSION_LIFETIME, 'SESSION_LIFETIME'),
    dbConnectTimeoutMs: milliseconds(env, 'DB_CONNECT_TIMEOUT_MS'),
    dbStatementTimeoutMs: milliseconds(env, 'DB_STATEMENT_TIMEOUT_MS'),
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || 'wl-panel',
    listCountLimit: wholeNumber(env, 'LIST_COUNT_LIMIT'),
    sqliteReadWorkers: wholeNumberOrOff(env, 'SQLITE_READ_WORKERS'),
    listReadsAtOnce: wholeNumber(env, 'LIST_READS_AT_ONCE'),
    listYieldMs: wholeNumberOrOff(env, 'LIST_YIELD_MS'),
    listYieldSharedMs: wholeNumberOrOff(env, 'LIST_YIELD_SHARED_MS'),
    liveSocketsPerSession: wholeNumber(env, 'LIVE_SOCKETS_PER_SESSION'),
    liveEventsPerSecond: wholeNumber(env, 'LIVE_EVENTS_PER_SECOND'),
    gitlab: gitlabConfig(env),
    apiDocs: onOff(env, 'API_DOCS', true),
  };
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return fallback;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`${name} is on or off: ${env[name]}`);
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} is not a number of seconds: ${env[name]}`);
  return value * 1000;
}

function gitlabConfig(env: NodeJS.ProcessEnv): GitlabConfig {
  const url = env.GITLAB_URL?.trim().replace(/\/+$/, '') || undefined;
  if (url && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(url)) throw new Error(`GITLAB_URL is not an http(s) address: ${url}`);
  return {
    url,
    token: env.GITLAB_TOKEN?.trim() || undefined,
    projectId: env.GITLAB_PROJECT_ID?.trim() || undefined,
    webhookSecret: env.GITLAB_WEBHOOK_SECRET || undefined,
    pollMs: seconds(env, 'GITLAB_POLL_SECONDS', 2),
    idlePollMs: seconds(env, 'GITLAB_IDLE_POLL_SECONDS', 60),
    timeoutMs: seconds(env, 'GITLAB_TIMEOUT_SECONDS', 10),
  };
}
