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
  publicRateLimit: { perMinute: number };
  schemasDir: string;
  distDir: string;
}

const list = (value: string | undefined) =>
  (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

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
    publicRateLimit: { perMinute },
    schemasDir: resolve(env.SCHEMAS_DIR ?? 'schemas'),
    distDir: resolve(env.DIST_DIR ?? 'dist'),
  };
}
