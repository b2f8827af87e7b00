// The database going away, busy or full never kills the server nor freezes it: requests meanwhile get a 503
// with Retry-After and a clear message, the outage is logged once, and the server serves again by itself.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createServer, Socket, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { ADMIN, TEST_DATABASE_URL, freshPostgresDatabase, startApp } from './harness.ts';
import { startServerProcess } from './server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function login(app: FastifyInstance): Promise<string> {
  const reply = await app.inject({ method: 'POST', url: '/v1/user/login', payload: ADMIN });
  return reply.json().data.token;
}

/** A server whose PostgreSQL is reached through a relay the test controls, with one-second time limits. */
function appThroughRelay(databaseUrl: URL, dataDir: string, log: (line: string) => void): Promise<FastifyInstance> {
  return buildApp({
    log,
    config: {
      dataDir,
      databaseUrl: databaseUrl.toString(),
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      schemasDir: resolve('schemas'),
      distDir: join(dataDir, 'no-dist'),
      corsOrigins: [],
      dbConnectTimeoutMs: 1000,
      dbStatementTimeoutMs: 1000,
    },
  });
}

async function terminateBackends(database: string): Promise<number> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select pg_terminate_backend(pid) as done from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    return rows.length;
  } finally {
    await client.end();
  }
}

/** Polls until `url` answers 200, for at most `ms`. */
async function servesAgain(url: string, headers: Record<string, string>, ms = 15_000): Promise<number> {
  const until = Date.now() + ms;
  let status = 0;
  while (Date.now() < until) {
    status = await fetch(url, { headers }).then((r) => r.status, () => 0);
    if (status === 200) return status;
    await sleep(200);
  }
  return status;
}

describe('PostgreSQL going away (postgres)', () => {
  it('keeps the process up when its connections are terminated in the middle of a request loop, answers only 200 or 503 with Retry-After, and serves again', async () => {
    const fresh = await freshPostgresDatabase();
    const database = new URL(fresh.url).pathname.slice(1);
    const dataDir = mkdtempSync(join(tmpdir(), 'panel-outage-'));
    const server = await startServerProcess(dataDir, { DATABASE_URL: fresh.url });
    try {
      const headers = { authorization: await server.login() };
      const seen = new Map<string, number>();
      const note = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
      let running = true;
      let n = 0;
      const worker = async () => {
        while (running) {
          const url = n % 2 ? `${server.url}/v1/admin/platform/get` : `${server.url}/v1/admin/platform/add?name=loop-${n}&maxVersion=1.2.3`;
          n++;
          try {
            const res = await fetch(url, { headers });
            const body = (await res.json()) as { message?: string };
            note(String(res.status));
            if (res.status === 503) {
              note(`retry-after ${res.headers.get('retry-after') ? 'present' : 'missing'}`);
              expect(body.message).toMatch(/^The database/);
            }
          } catch {
            note('no answer');
          }
        }
      };
      const loop = Promise.all([1, 2, 3, 4].map(worker));
      await sleep(400);
      for (let round = 0; round < 3; round++) {
        await terminateBackends(database);
        await sleep(300);
      }
      await sleep(300);
      running = false;
      await loop;
      expect(server.alive()).toBe(true);
      expect([...seen.keys()].filter((k) => !['200', '503', 'retry-after present'].includes(k))).toEqual([]);
      expect(seen.get('200')).toBeGreaterThan(10);

      // Idle pooled connections dying is what ended the process before: once more with nothing in flight.
      await sleep(200);
      expect(await terminateBackends(database)).toBeGreaterThan(0);
      await sleep(500);
      expect(server.alive()).toBe(true);
      expect(await servesAgain(`${server.url}/v1/admin/platform/get`, headers)).toBe(200);
      const logged = server.output().split('\n').filter((l) => l.includes('database unavailable'));
      expect(logged.length).toBeGreaterThanOrEqual(1);
      expect(logged.length).toBeLessThanOrEqual(2);
    } finally {
      await server.stop();
      await fresh.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('with the network to PostgreSQL silent', () => {
    // A TCP relay to PostgreSQL that can swallow every byte both ways, as a black-holed network does.
    let relay: Server;
    let silent = false;
    const open = new Set<Socket>();
    let app: FastifyInstance;
    let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>>;
    let dataDir: string;
    const lines: string[] = [];

    beforeAll(async () => {
      const upstream = new URL(TEST_DATABASE_URL);
      relay = createServer((client) => {
        open.add(client);
        const server = new Socket();
        open.add(server);
        server.connect(Number(upstream.port || 5432), upstream.hostname);
        client.on('data', (d) => silent || server.write(d));
        server.on('data', (d) => silent || client.write(d));
        for (const [a, b] of [[client, server], [server, client]]) {
          a.on('error', () => b.destroy());
          a.on('close', () => {
            open.delete(a);
            b.destroy();
          });
        }
      });
      await new Promise<void>((ok) => relay.listen(0, '127.0.0.1', ok));
      fresh = await freshPostgresDatabase();
      const viaRelay = new URL(fresh.url);
      viaRelay.host = `127.0.0.1:${(relay.address() as { port: number }).port}`;
      dataDir = mkdtempSync(join(tmpdir(), 'panel-silent-'));
      app = await appThroughRelay(viaRelay, dataDir, (line) => lines.push(line));
    });
    afterAll(async () => {
      silent = false;
      await app?.close();
      for (const socket of open) socket.destroy();
      relay?.close();
      await fresh?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('answers 503 with Retry-After within its time limits instead of hanging, logs it once, and recovers when the network returns', async () => {
      const token = await login(app);
      const list = () => app.inject({ url: '/v1/admin/platform/get', headers: { authorization: token } });
      expect((await list()).statusCode).toBe(200);

      silent = true;
      for (let i = 0; i < 3; i++) {
        const reply = await list();
        expect(reply.statusCode).toBe(503);
        expect(reply.headers['retry-after']).toBe('5');
        expect(reply.json()).toEqual({ result: false, code: 'ERR_UNAVAILABLE', message: expect.stringMatching(/^The database (is unreachable|did not answer in time)/) });
      }
      expect(lines.filter((l) => l.includes('database unavailable')), lines.join('\n')).toHaveLength(1);

      silent = false;
      for (const socket of open) socket.destroy(); // what the silence garbled is lost for good
      let status = 0;
      for (let i = 0; i < 20 && status !== 200; i++) {
        status = (await list()).statusCode;
        if (status !== 200) await sleep(250);
      }
      expect(status).toBe(200);
      await sleep(1100); // an outage ends after a second without failures
      expect((await list()).statusCode).toBe(200);
      expect(lines.filter((l) => l.includes('database available again'))).toHaveLength(1);
    });
  });
});

describe('PostgreSQL refusing connections (postgres)', () => {
  // A TCP relay to PostgreSQL whose port can be closed, so that every new connection is refused (ECONNREFUSED), as
  // when PostgreSQL is down, and opened again on the same port.
  let relay: Server;
  let port = 0;
  const open = new Set<Socket>();
  let app: FastifyInstance;
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let dataDir: string;
  const upstream = new URL(TEST_DATABASE_URL);
  const listen = () =>
    new Promise<void>((ok) => {
      relay = createServer((client) => {
        const server = new Socket();
        for (const socket of [client, server]) open.add(socket);
        server.connect(Number(upstream.port || 5432), upstream.hostname);
        client.pipe(server).pipe(client);
        for (const [a, b] of [[client, server], [server, client]]) {
          a.on('error', () => b.destroy());
          a.on('close', () => {
            open.delete(a);
            b.destroy();
          });
        }
      });
      relay.listen(port, '127.0.0.1', () => {
        port = (relay.address() as { port: number }).port;
        ok();
      });
    });

  beforeAll(async () => {
    await listen();
    fresh = await freshPostgresDatabase();
    const viaRelay = new URL(fresh.url);
    viaRelay.host = `127.0.0.1:${port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'panel-refused-'));
    app = await appThroughRelay(viaRelay, dataDir, () => {});
  });
  afterAll(async () => {
    await app?.close();
    for (const socket of open) socket.destroy();
    relay?.close();
    await fresh?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a staff call, a login and device calls 503 ERR_UNAVAILABLE with Retry-After while connections are refused, and serves again after', async () => {
    const token = await login(app);
    const staff = () => app.inject({ url: '/v1/admin/platform/get', headers: { authorization: token } });
    expect((await staff()).statusCode).toBe(200);

    relay.close();
    for (const socket of open) socket.destroy(); // the pool's connections die with PostgreSQL
    await sleep(100);
    const calls = {
      staff,
      login: () => app.inject({ method: 'POST', url: '/v1/user/login', payload: ADMIN }),
      lookup: () => app.inject({ url: '/v1/combination/get?ipAddress=198.51.100.7&appInstallId=device-1' }),
      report: () => app.inject({ method: 'POST', url: '/v1/appinfo/report', payload: { appInstallId: 'device-1' } }),
    };
    for (let round = 0; round < 2; round++) {
      for (const [what, call] of Object.entries(calls)) {
        const reply = await call();
        expect([what, reply.statusCode, reply.headers['retry-after']]).toEqual([what, 503, '5']);
        expect(reply.json()).toEqual({ result: false, code: 'ERR_UNAVAILABLE', message: expect.stringMatching(/The database is unreachable/) });
      }
    }

    await listen();
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await staff()).statusCode;
      if (status !== 200) await sleep(250);
    }
    expect(status).toBe(200);
    expect((await calls.report()).statusCode).toBe(200);
  });
});

describe('SQLite locked or full (sqlite)', () => {
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  let token: string;
  beforeAll(async () => {
    const started = await startApp('sqlite', { log: () => {} });
    app = started.app;
    cleanup = started.cleanup;
    token = await login(app);
  });
  afterAll(async () => {
    await app?.close();
    await cleanup?.();
  });
  const call = (url: string) => app.inject({ url, headers: { authorization: token } });

  it('answers a write 503 with Retry-After while another process holds the write lock, keeps serving meanwhile, and writes once it is released', async () => {
    const file = join(app.engine.dataDir, 'panel.sqlite');
    const holder = spawn(
      process.execPath,
      ['-e', `const db = require('better-sqlite3')(${JSON.stringify(file)}); db.exec('begin immediate'); console.log('locked'); setInterval(() => {}, 1000);`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((ok) => holder.stdout!.once('data', () => ok()));
      let writeDone = false;
      const write = call('/v1/admin/platform/add?name=while-locked&maxVersion=1.2.3').then((reply) => {
        writeDone = true;
        return reply;
      });
      // The event loop is free while the write waits: other requests, reads included, are answered first.
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect(writeDone).toBe(false);
      const reply = await write;
      expect(reply.statusCode).toBe(503);
      expect(reply.headers['retry-after']).toBe('1');
      expect(reply.json().message).toBe('The database is locked by another process; try again in a moment');
      expect((await call('/v1/admin/platform/get')).statusCode).toBe(200);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
    const after = await call('/v1/admin/platform/add?name=after-the-lock&maxVersion=1.2.3');
    expect(after.statusCode).toBe(200);
  });

  it('answers 503 with a clear message when the database cannot grow (a full disk), and serves reads meanwhile', async () => {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(app.engine.db);
    await sql.raw(`pragma max_page_count = ${rows[0].page_count}`).execute(app.engine.db);
    try {
      let reply;
      for (let i = 0; i < 500; i++) {
        reply = await call(`/v1/admin/platform/add?name=${'filler-'.repeat(12)}${i}&maxVersion=1.2.3`);
        if (reply.statusCode !== 200) break;
      }
      expect(reply!.statusCode).toBe(503);
      expect(reply!.headers['retry-after']).toBe('60');
      expect(reply!.json().message).toBe("The database's disk is full; nothing can be saved until space is freed");
      expect((await call('/v1/admin/platform/get')).statusCode).toBe(200);
    } finally {
      await sql.raw('pragma max_page_count = 1073741823').execute(app.engine.db);
    }
    expect((await call('/v1/admin/platform/add?name=room-again&maxVersion=1.2.3')).statusCode).toBe(200);
  });

});

describe('SQLite file gone (sqlite)', () => {
  it('answers a list 503 with Retry-After while its database file cannot be opened (moved away), and serves it again once it is back', async () => {
    const { app, cleanup } = await startApp('sqlite', { log: () => {} });
    try {
      const token = await login(app);
      const list = () => app.inject({ url: '/v1/admin/platform/get', headers: { authorization: token } });
      // A list read's worker opens the file at its first read: here, after the file went away.
      const file = join(app.engine.dataDir, 'panel.sqlite');
      const moved = ['', '-wal', '-shm'].filter((suffix) => existsSync(file + suffix));
      for (const suffix of moved) renameSync(file + suffix, `${file + suffix}.away`);
      try {
        const reply = await list();
        expect([reply.statusCode, reply.headers['retry-after']]).toEqual([503, '5']);
        expect(reply.json()).toEqual({ result: false, code: 'ERR_UNAVAILABLE', message: 'The database file cannot be opened or read; try again in a few seconds' });
      } finally {
        for (const suffix of moved) renameSync(`${file + suffix}.away`, file + suffix);
      }
      expect((await list()).statusCode).toBe(200);
    } finally {
      await app.close();
      await cleanup();
    }
  });
});
