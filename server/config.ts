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
  schemasDir: string;
  distDir: string;
  /** A session ends after this long without a call (SESSION_IDLE_TIMEOUT). */
  sessionIdleMs: number;
  /** A session ends this long after its login, however busy (SESSION_LIFETIME). */
  sessionLifetimeMs: number;
}

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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT is not a port number: ${env.PORT}`);
  const hosts = list(env.PANEL_HOSTS);
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
    schemasDir: resolve(env.SCHEMAS_DIR ?? 'schemas'),
    distDir: resolve(env.DIST_DIR ?? 'dist'),
    sessionIdleMs: duration(env.SESSION_IDLE_TIMEOUT || DEFAULT_SESSION_IDLE, 'SESSION_IDLE_TIMEOUT'),
    sessionLifetimeMs: duration(env.SESSION_LIFETIME || DEFAULT_SESSION_LIFETIME, 'SESSION_LIFETIME'),
  };
}
