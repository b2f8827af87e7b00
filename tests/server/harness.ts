// Runs a test file's cases on SQLite and on PostgreSQL: each dialect gets a fresh database (a temp dir, or a
// new PostgreSQL database that is dropped afterwards), an app, and one logged-in user per role.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp, type BuildOptions } from '../../server/app.ts';
import type { Role } from '../../kernel/manifest/types.ts';
import { DECLARED_ROLES } from '../../kernel/roles.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const DIALECTS = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof DIALECTS)[number];
/** The roles of schemas/roles.json: a role added there is in every access matrix at once. */
export const ROLES: Role[] = [...DECLARED_ROLES.names];
export const ADMIN = { email: 'admin@test.io', password: 'admin-password-1' };
export const passwordOf = (role: Role) => `${role}-password-1`;
export const emailOf = (role: Role) => (role === 'admin' ? ADMIN.email : `${role}@test.io`);

export interface Reply {
  status: number;
  body: { result: boolean; data?: any; message?: string; code?: string; fields?: { field: string; message: string }[] };
  raw: string;
}

export interface CallOptions {
  token?: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** A multipart/form-data body: text fields, and files as {filename, content, type}. */
  form?: Record<string, string | FormFile>;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface FormFile {
  filename: string;
  content: Buffer | string;
  type?: string;
}

/** Encodes a multipart/form-data body by hand, so tests control every byte (file names, types, sizes). */
export function multipartBody(form: Record<string, string | FormFile>): { payload: Buffer; contentType: string } {
  const boundary = `----panel-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(form)) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type ?? 'application/octet-stream'}\r\n\r\n`;
      chunks.push(Buffer.from(head), Buffer.from(value.content), Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface Harness {
  dialect: Dialect;
  app: FastifyInstance;
  tokens: Record<Role, string>;
  databaseUrl?: string;
  call(method: string, url: string, options?: CallOptions): Promise<Reply>;
  /** Shorthand for the admin. */
  admin(method: string, url: string, options?: CallOptions): Promise<Reply>;
  count(table: string): Promise<number>;
  login(email: string, password: string, remoteAddress?: string): Promise<Reply>;
}

export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect(); // an unreachable PostgreSQL fails the suite here, by design
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      // pg's pool.end() returns before its sockets close; a forced drop would then kill a closing client,
      // whose FATAL message surfaces as an unhandled error. Wait for the app's sessions to end first.
      for (let tries = 0; tries < 100; tries++) {
        const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export async function startApp(dialect: Dialect, options: BuildOptions = {}) {
  let cleanup: () => Promise<void>;
  let databaseUrl: string | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'panel-test-'));
  if (dialect === 'postgres') {
    const fresh = await freshPostgresDatabase();
    databaseUrl = fresh.url;
    cleanup = async () => {
      await fresh.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  } else {
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  try {
    const app = await buildApp({
      ...options,
      config: {
        dataDir,
        databaseUrl,
        adminEmail: ADMIN.email,
        adminPassword: ADMIN.password,
        schemasDir: resolve('schemas'),
        distDir: join(dataDir, 'no-dist'),
        corsOrigins: [],
        publicUrl: undefined,
        panelHosts: undefined,
        ...options.config,
      },
    });
    return { app, databaseUrl, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

function encodeQuery(query?: CallOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return `?${params}`;
}

/** Declares `body` once per dialect, inside a describe named after the dialect. */
export function forEachDialect(title: string, body: (h: Harness) => void, options: BuildOptions = {}): void {
  for (const dialect of DIALECTS) {
    describe(`${title} (${dialect})`, () => {
      const h = { dialect } as Harness;
      let cleanup: () => Promise<void> = async () => {};
      beforeAll(async () => {
        const started = await startApp(dialect, options);
        cleanup = started.cleanup;
        h.app = started.app;
        h.databaseUrl = started.databaseUrl;
        h.call = async (method, url, o = {}) => {
          const headers: Record<string, string> = { ...o.headers };
          if (o.token) headers.authorization = `Bearer ${o.token}`;
          if (o.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
          let payload: string | Buffer | undefined = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
          if (o.form) {
            const encoded = multipartBody(o.form);
            payload = encoded.payload;
            headers['content-type'] = encoded.contentType;
          }
          const response = await h.app.inject({
            method: method as 'GET',
            url: url + encodeQuery(o.query),
            headers,
            payload,
            remoteAddress: o.remoteAddress ?? '127.0.0.1',
          });
          let parsed: Reply['body'];
          try {
            parsed = JSON.parse(response.body);
          } catch {
            parsed = { result: false, message: `not JSON: ${response.body.slice(0, 80)}` };
          }
          return { status: response.statusCode, body: parsed, raw: response.body };
        };
        h.admin = (method, url, o = {}) => h.call(method, url, { ...o, token: h.tokens.admin });
        h.login = (email, password, remoteAddress) =>
          h.call('POST', '/v1/user/login', { body: { email, password }, remoteAddress });
        h.count = async (table) => {
          const row = await h.app.engine.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
          return Number(row.n);
        };
        h.tokens = {} as Record<Role, string>;
        h.tokens.admin = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
        for (const role of ROLES.filter((r) => r !== DECLARED_ROLES.firstAccount)) {
          const query = { email: emailOf(role), password: passwordOf(role), role };
          let created = await h.admin('GET', '/v1/admin/user/add', { query });
          if (created.status === 401) {
            // A file that tries a session lifetime of a second or two can see the admin's token end while a slow
            // machine is still creating the other roles' accounts: log in again rather than fail the setup.
            h.tokens.admin = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
            created = await h.admin('GET', '/v1/admin/user/add', { query });
          }
          if (created.status !== 200) throw new Error(`could not create ${role}: ${created.raw}`);
          h.tokens[role] = (await h.login(emailOf(role), passwordOf(role))).body.data.token;
        }
      });
      afterAll(async () => {
        await h.app?.close();
        await cleanup();
      });
      body(h);
    });
  }
}
