// Several server processes on one PostgreSQL and one Redis (README, Operations): two real processes started at
// the same moment on an empty database both come up with the schema made once; a live item of a write on one
// reaches a socket on the other; a logout on one cuts the socket on the other at once; login failures on one
// count on the other; a build reload running on one refuses another on the other; the device lookup of one
// answers a combination changed through the other; the device calls of one address count against one
// PUBLIC_RATE_LIMIT however they are spread over the two.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createClient } from 'redis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/migrations/index.ts';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';
import { ADMIN, freshPostgresDatabase, multipartBody, type FormFile } from './harness.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const DEVICE_CALLS_PER_MINUTE = 200;

describe('two server processes on one PostgreSQL and one Redis', () => {
  // A prefix of this run's own: parallel runs on one Redis never hear each other's broadcasts.
  const prefix = `wl-panel-test-${randomBytes(6).toString('hex')}`;
  let dataDir = '';
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let tokenA = '';
  const sockets: Socket[] = [];

  const call = async (server: ServerProcess, path: string, options: { token?: string; body?: unknown; form?: Record<string, string | FormFile> } = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined;
    if (options.form) {
      const encoded = multipartBody(options.form);
      body = encoded.payload;
      headers['content-type'] = encoded.contentType;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${server.url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body: typeof body === 'string' ? body : body && new Uint8Array(body) });
    return { status: response.status, body: (await response.json()) as { result: boolean; data?: any; message?: string } };
  };

  /** An open socket on `server` with what it receives. */
  const open = async (server: ServerProcess, token: string) => {
    const socket = io(server.url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const seen = { items: [] as { type: string; data: unknown }[], ended: false, reason: '' };
    socket.on('dataQueue', (batch: { type: string; data: unknown }[]) => seen.items.push(...batch));
    socket.on('sessionEnded', () => (seen.ended = true));
    socket.on('disconnect', (reason) => (seen.reason = reason));
    await new Promise((resolve, reject) => {
      socket.on('connect', () => resolve(undefined));
      socket.on('connect_error', reject);
    });
    return { socket, seen };
  };
  /** Waits up to `ms` for `test` to hold. */
  const until = async (test: () => boolean | Promise<boolean>, ms = 3000) => {
    for (const end = Date.now() + ms; !(await test()) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25));
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'panel-multi-'));
    database = await freshPostgresDatabase();
    // The device calls' limit is low enough to reach in a test, high enough for the lookups of the other cases.
    const env = { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: prefix, PUBLIC_RATE_LIMIT: String(DEVICE_CALLS_PER_MINUTE), PUBLIC_RATE_BURST: String(DEVICE_CALLS_PER_MINUTE), TRUSTED_PROXIES: '127.0.0.1' };
    // Both at the same moment, on the empty database and one DATA_DIR (uploads and builds are shared files).
    [a, b] = await Promise.all([startServerProcess(dataDir, env), startServerProcess(dataDir, env)]);
    tokenA = await a.login();
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    // Pub/sub leaves nothing behind; this makes sure no key of this run's prefix was left either.
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
    await redis.close();
  });

  it('starts both processes at once on an empty database: each table, migration and the first admin made once', async () => {
    expect(a.alive() && b.alive()).toBe(true);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const applied = await client.query('select version from schema_migrations order by version');
      expect(applied.rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
      const admins = await client.query('select email from users');
      expect(admins.rows).toEqual([{ email: ADMIN.email }]);
    } finally {
      await client.end();
    }
    expect(`${a.output()}${b.output()}`).not.toMatch(/error/i);
  });

  it('sends a live item of a write on one process to a socket on the other', async () => {
    const onB = await open(b, await b.login());
    const reload = await call(a, '/v1/admin/build/reload', { token: tokenA });
    expect(reload.status).toBe(200);
    await until(() => onB.seen.items.some((i) => i.type === 'console'));
    expect(onB.seen.items.find((i) => i.type === 'console')?.data).toMatch(/Reload builds: 0 builds on disk/);
  });

  it('cuts the socket on the other process at once when its session logs out', async () => {
    const token = await a.login();
    const onB = await open(b, token);
    const bystander = await open(b, tokenA);
    expect((await call(a, '/v1/user/logout', { token, body: {} })).status).toBe(200);
    await until(() => onB.seen.reason !== '', 2000);
    expect(onB.seen).toMatchObject({ ended: true, reason: 'io server disconnect' });
    expect(bystander.socket.connected).toBe(true);
  });

  it('counts login failures on one process against the limit on the other', async () => {
    await call(a, '/v1/admin/user/add?email=guessed@test.io&password=right-pass-1&role=tester', { token: tokenA });
    for (let i = 0; i < 5; i++) expect((await call(a, '/v1/user/login', { body: { email: 'guessed@test.io', password: 'wrong' } })).status).toBe(401);
    const onB = await call(b, '/v1/user/login', { body: { email: 'guessed@test.io', password: 'right-pass-1' } });
    expect(onB.status).toBe(429);
  });

  it('refuses a build reload on one process while one runs on the other, and runs it once that one ended', async () => {
    for (let i = 0; i < 600; i++) dropBuild(dataDir, ['acme', 'tizen', `1.${Math.floor(i / 100)}.${i % 100}`, '1080p']);
    const tokenB = await b.login();
    const onA = call(a, '/v1/admin/build/reload', { token: tokenA });
    await new Promise((r) => setTimeout(r, 150));
    const onB = await call(b, '/v1/admin/build/reload', { token: tokenB });
    expect(onB).toMatchObject({ status: 409, body: { message: 'Another build reload or update is running; try again when it has finished' } });
    expect((await onA).status).toBe(200);
    expect((await call(b, '/v1/admin/build/reload', { token: tokenB })).status).toBe(200);
  });

  it('answers a device on one process with the combination just changed through the other', async () => {
    const acme = await call(a, '/v1/admin/whitelabel/add', { token: tokenA, form: whitelabelForm('acme') });
    expect(acme.status).toBe(200);
    const tizen = await call(a, '/v1/admin/platform/add?name=tizen&maxVersion=01.20.34', { token: tokenA });
    for (const version of ['1.20.33', '1.20.34']) dropBuild(dataDir, ['acme', 'tizen', version, '720p']);
    await call(a, '/v1/admin/build/reload', { token: tokenA });
    const rows = (await call(a, '/v1/admin/build/get?pageSize=20&ownVersion=1.20.33', { token: tokenA })).body.data.rows as { id: number; name: string }[];
    const older = rows.find((r) => r.name === 'acme-tizen-1.20.33-720p')!;
    const lookup = async () => (await call(b, `/v1/combination/get?whitelabel=acme&platform=${encodeURIComponent(JSON.stringify({ name: 'tizen' }))}`)).body.data;
    expect((await lookup()).matchedBy).toBe('latest');
    const added = await call(a, `/v1/admin/combination/add?whitelabelId=${acme.body.data.id}&platformId=${tizen.body.data.id}&buildId=${older.id}&isPublished=true`, { token: tokenA });
    expect(added.status).toBe(200);
    await until(async () => (await lookup()).matchedBy !== 'latest');
    expect((await lookup()).build.name).toBe('acme-tizen-1.20.33-720p');
  });

  it('counts the device calls of one address on both processes against one PUBLIC_RATE_LIMIT', async () => {
    // The count is a sliding minute made of whole minutes: start well inside one, so the limit is exact.
    const second = new Date().getSeconds();
    if (second > 50) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    const device = async (server: ServerProcess, address: string) => {
      const response = await fetch(`${server.url}/v1/combination/get?appInstallId=rate-limited`, { headers: { 'x-forwarded-for': address } });
      await response.body?.cancel();
      return { status: response.status, retryAfter: response.headers.get('retry-after') };
    };
    const statuses: number[] = [];
    for (let i = 0; i < DEVICE_CALLS_PER_MINUTE; i++) statuses.push((await device(i % 2 ? b : a, '203.0.113.50')).status);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    for (const server of [a, b]) {
      const refused = await device(server, '203.0.113.50');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    expect((await device(b, '203.0.113.51')).status).not.toBe(429);
  });
});
