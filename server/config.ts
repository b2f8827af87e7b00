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
  /** PostgreSQL: time limits of opening a connection and of one statement, past which a request gets a 503. */
  dbConnectTimeoutMs?: number;
  dbStatementTimeoutMs?: number;
}

const list = (value: string | undefined) =>
  (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

function milliseconds(env: NodeJS.ProcessEnv, name: string): number | undefined {
  if (!env[name]) return undefined;
  const value = Number(env[name]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} is not a positive number of milliseconds: ${env[name]}`);
  return value;
}

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
    dbConnectTimeoutMs: milliseconds(env, 'DB_CONNECT_TIMEOUT_MS'),
    dbStatementTimeoutMs: milliseconds(env, 'DB_STATEMENT_TIMEOUT_MS'),
  };
}
