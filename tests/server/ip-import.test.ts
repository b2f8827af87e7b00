// The IP import where it leaves the server's usual path (issue 14: its body is read and, on SQLite, stored on a worker
// thread): a SIGTERM in the middle of an import still ends the process cleanly, and the list is stored whole or not at
// all; a database that is locked, full or gone answers the import as it answers every other write, with a 503 and
// nothing stored; and the rows go in one multi-row statement per chunk, as the server's log says.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Writable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER_STATEMENT_ROWS } from '../../server/actions/ip-import-worker.ts';
import { UNNEST_ROWS } from '../../server/actions/testers-ip.ts';
import { ADMIN, DIALECTS, TEST_DATABASE_URL, freshPostgresDatabase, startApp, type Dialect } from './harness.ts';
import { startServerProcess } from './server-process.ts';

const ENTRIES = 200_000;

describe.each(DIALECTS)('the IP import and a stop (%s, the server as its own process)', (dialect) => {
  it('stops cleanly on SIGTERM during a large import, which is then stored whole or not at all with its audit row', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'panel-ip-import-'));
    const database = dialect === 'postgres' ? await freshPostgresDatabase() : undefined;
    /** Rows of the import and its audit rows, read straight from the database once the server is gone. */
    const stored = async (): Promise<{ rows: number; logs: number }> => {
      const rows = "select count(*) as n from tester_ips where ip like '110.%'";
      const logs = "select count(*) as n from user_logs where \"routePath\" = 'addArray'";
      if (!database) {
        const db = new SQLite(join(dataDir, 'panel.sqlite'), { readonly: true });
        try {
          return { rows: Number((db.prepare(rows).get() as { n: number }).n), logs: Number((db.prepare(logs).get() as { n: number }).n) };
        } finally {
          db.close();
        }
      }
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return { rows: Number((await client.query(rows)).rows[0].n), logs: Number((await client.query(logs)).rows[0].n) };
      } finally {
        await client.end();
      }
    };
    try {
      const server = await startServerProcess(dataDir, database ? { DATABASE_URL: database.url } : {});
      const token = await server.login();
      const ips = Array.from({ length: ENTRIES }, (_, i) => ({ ip: `110.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, vendor: 'lg' }));
      const answer = fetch(`${server.url}/v1/admin/testersIP/addArray`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify({ ips }),
      }).then(
        async (response) => ({ status: response.status, body: await response.text() }),
        () => ({ status: 0, body: '' }),
      );
      // The stop comes once the import is under way (the body sent, its worker reading or storing it).
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await server.stop()).toBe(0);
      const reply = await answer;
      const after = await stored();
      expect([0, ENTRIES]).toContain(after.rows);
      expect(after.logs).toBe(after.rows ? 1 : 0);
      // An answer that says it was stored is true.
      if (reply.status === 200) expect([reply.body, after.rows]).toEqual([JSON.stringify({ result: true, data: { count: ENTRIES } }), ENTRIES]);
    } finally {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** `count` addresses from a.0.0.0 on, as the import's JSON body. */
const importBody = (first: number, count: number) =>
  JSON.stringify({ ips: Array.from({ length: count }, (_, i) => ({ ip: `${first}.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, vendor: 'lg' })) });

/** A server built in this process whose request log (LOG_REQUESTS) is kept as parsed lines. */
function importServer(dialect: Dialect) {
  const logged: Record<string, unknown>[] = [];
  const server = { app: undefined as unknown as FastifyInstance, token: '', logged, cleanup: async () => {} };
  beforeAll(async () => {
    let partial = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines) logged.push(JSON.parse(line));
        done();
      },
    });
    const started = await startApp(dialect, { logger: { stream }, log: () => {} });
    server.app = started.app;
    server.cleanup = started.cleanup;
    server.token = (await server.app.inject({ method: 'POST', url: '/v1/user/login', payload: ADMIN })).json().data.token;
  });
  afterAll(async () => {
    await server.app?.close();
    await server.cleanup();
  });
  return {
    logged,
    get app() {
      return server.app;
    },
    get token() {
      return server.token;
    },
    post: (body: string) =>
      server.app.inject({ method: 'POST', url: '/v1/admin/testersIP/addArray', headers: { authorization: server.token, 'content-type': 'application/json' }, payload: body }),
    /** Rows of the import and its audit rows. */
    stored: async () => {
      const count = async (table: string) => Number((await server.app.engine.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      return { rows: await count('tester_ips'), logs: await count('user_logs') };
    },
  };
}

describe.each(DIALECTS)('the IP import in multi-row statements (%s)', (dialect) => {
  const server = importServer(dialect);

  it('inserts 450,000 addresses in one statement per chunk, as its log line says', async () => {
    const rows = 450_000;
    const reply = await server.post(importBody(120, rows));
    expect(reply.json()).toEqual({ result: true, data: { count: rows } });
    const lines = server.logged.filter((line) => line.msg === 'IP import inserted');
    const rowsPerStatement = dialect === 'sqlite' ? WORKER_STATEMENT_ROWS : UNNEST_ROWS;
    expect(lines.map((line) => line.ipImport)).toEqual([{ rows, statements: Math.ceil(rows / rowsPerStatement), rowsPerStatement }]);
  }, 60_000);
});

describe('the IP import with the database locked or full (sqlite)', () => {
  const server = importServer('sqlite');

  it('answers 503 with the lock message while another connection holds the write lock, stores nothing, and imports once it is released', async () => {
    const before = await server.stored();
    const holder = new SQLite(join(server.app.engine.dataDir, 'panel.sqlite'));
    holder.exec('begin immediate');
    try {
      const reply = await server.post(importBody(130, 10_000));
      expect(reply.statusCode).toBe(503);
      expect(reply.headers['retry-after']).toBe('1');
      expect(reply.json()).toMatchObject({ result: false, code: 'ERR_UNAVAILABLE', message: 'The database is locked by another process; try again in a moment' });
      expect(await server.stored()).toEqual(before);
    } finally {
      holder.exec('rollback');
      holder.close();
    }
    expect((await server.post(importBody(130, 10_000))).json()).toEqual({ result: true, data: { count: 10_000 } });
    expect(await server.stored()).toEqual({ rows: before.rows + 10_000, logs: before.logs + 1 });
  });

  it('answers 503 with the full-disk message when the database cannot grow, stores nothing, and imports once there is room', async () => {
    const before = await server.stored();
    const db = server.app.engine.db;
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    await sql.raw(`pragma max_page_count = ${rows[0].page_count}`).execute(db);
    try {
      const reply = await server.post(importBody(131, 10_000));
      expect(reply.statusCode).toBe(503);
      expect(reply.headers['retry-after']).toBe('60');
      expect(reply.json()).toMatchObject({ result: false, code: 'ERR_UNAVAILABLE', message: "The database's disk is full; nothing can be saved until space is freed" });
      expect(await server.stored()).toEqual(before);
    } finally {
      await sql.raw('pragma max_page_count = 1073741823').execute(db);
    }
    expect((await server.post(importBody(131, 10_000))).json()).toEqual({ result: true, data: { count: 10_000 } });
    expect(await server.stored()).toEqual({ rows: before.rows + 10_000, logs: before.logs + 1 });
  });
});

describe('the IP import with PostgreSQL gone in the middle (postgres)', () => {
  const server = importServer('postgres');

  it('answers 503 when its connection is cut while it inserts, stores nothing, and imports again afterwards', async () => {
    const before = await server.stored();
    const database = (await sql<{ name: string }>`select current_database() as name`.execute(server.app.engine.db)).rows[0].name;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL.replace(/\/[^/]*$/, `/${database}`) });
    await Promise.all([admin.connect(), holder.connect()]);
    try {
      // The table held, so the import's insert is surely under way, waiting, when its connection is cut.
      await holder.query('begin');
      await holder.query('lock table tester_ips in share mode');
      const reply = server.post(importBody(140, 10_000));
      let cut = 0;
      for (let tries = 0; tries < 200 && !cut; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        const { rows } = await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and wait_event_type = 'Lock' and query like 'insert into%'",
          [database],
        );
        cut = rows.length;
      }
      expect(cut).toBe(1);
      await holder.query('rollback');
      const answer = await reply;
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
      expect(answer.json()).toMatchObject({ result: false, code: 'ERR_UNAVAILABLE', message: 'The database is unreachable; try again in a few seconds' });
      expect(await server.stored()).toEqual(before);
    } finally {
      await Promise.all([admin.end(), holder.end()]);
    }
    expect((await server.post(importBody(140, 10_000))).json()).toEqual({ result: true, data: { count: 10_000 } });
    expect(await server.stored()).toEqual({ rows: before.rows + 10_000, logs: before.logs + 1 });
  });
});

describe.each(DIALECTS)('the IP import and duplicates, and its Cancel (%s)', (dialect) => {
  const server = importServer(dialect);
  const entries = (ips: string[]) => JSON.stringify({ ips: ips.map((ip) => ({ ip, vendor: 'lg' })) });

  it('refuses a list that names an address twice with 409, naming both lines, and stores nothing', async () => {
    const before = await server.stored();
    const reply = await server.post(entries(['150.0.0.1', '150.0.0.2/32', '150.0.0.1/32', '150.0.0.3']));
    expect(reply.statusCode).toBe(409);
    expect(reply.json()).toMatchObject({
      code: 'ERR_UNIQUE',
      message: 'ips: duplicate addresses, nothing stored: line 3: 150.0.0.1/32 repeats line 1',
      duplicates: [{ line: 3, ip: '150.0.0.1/32', first: 1 }],
    });
    expect(await server.stored()).toEqual(before);
  });

  it('refuses a list with an address already stored, naming its line, and stores nothing of it', async () => {
    expect((await server.post(entries(['151.0.0.1', '151.0.0.2']))).json()).toEqual({ result: true, data: { count: 2 } });
    const before = await server.stored();
    const reply = await server.post(entries(['151.0.0.9', '151.0.0.10', '151.0.0.2']));
    expect(reply.statusCode).toBe(409);
    expect(reply.json()).toMatchObject({
      message: 'ips: duplicate addresses, nothing stored: line 3: 151.0.0.2/32 is already in the list',
      duplicates: [{ line: 3, ip: '151.0.0.2/32' }],
    });
    expect(await server.stored()).toEqual(before);
  });

  it('stores nothing of an import whose caller goes away (the panel\'s Cancel) before it is stored', async () => {
    const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const before = await server.stored();
    const body = importBody(152, 300_000);
    const request = httpRequest(`${url}/v1/admin/testersIP/addArray`, {
      method: 'POST',
      headers: { authorization: server.token, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    request.on('error', () => {});
    // Cancelled once the whole body is sent: the server is then reading or storing it.
    request.end(body, () => setTimeout(() => request.destroy(), 50));
    await expect.poll(() => server.logged.some((line) => line.msg === 'IP import cancelled'), { timeout: 30_000, interval: 100 }).toBe(true);
    expect(await server.stored()).toEqual(before);
    // The same list sent again and kept is stored whole.
    expect((await server.post(body)).json()).toEqual({ result: true, data: { count: 300_000 } });
  }, 60_000);

  it('leaves nothing listening on a kept-alive connection once its imports are answered (twelve in a row on one)', async () => {
    const app = server.app;
    const url = app.server.listening ? `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` : await app.listen({ host: '127.0.0.1', port: 0 });
    const sockets: Socket[] = [];
    const onConnection = (socket: Socket) => sockets.push(socket);
    app.server.on('connection', onConnection);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${url}/v1/admin/testersIP/addArray`, {
          method: 'POST',
          agent,
          headers: { authorization: server.token, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        });
        request.on('error', reject);
        request.on('response', (response) => response.resume().on('end', () => resolve(response.statusCode!)));
        request.end(body);
      });
    try {
      const closeListeners: number[] = [];
      for (let i = 0; i < 12; i++) {
        expect(await send(entries([`153.0.${i}.1`]))).toBe(200);
        closeListeners.push(sockets[0].listenerCount('close'));
      }
      expect(sockets).toHaveLength(1);
      // Each answered import took its listener away again: as many on the connection after the twelfth as after the first.
      expect(closeListeners.at(-1)).toBe(closeListeners[0]);
    } finally {
      agent.destroy();
      app.server.off('connection', onConnection);
    }
  });
});
