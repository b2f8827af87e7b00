// List reads off the event loop (issue 14): on SQLite they run on worker threads with read-only connections and
// answer the same rows as the server's own connection; a read past its time limit is stopped with a clear 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectRows } from '../../server/core/rows.ts';
import { ADMIN, forEachDialect, startApp } from './harness.ts';
import { startServerProcess } from './server-process.ts';

forEachDialect(
  'list reads',
  (h) => {
  it('answer the same rows through the list read path as through the server connection, writes included at once', async () => {
    const engine = h.app.engine;
    const add = await h.admin('GET', '/v1/admin/installation/add', { query: { name: 'tv-read-path', userId: 'u-read' } });
    expect(add.status).toBe(200);
    const query = selectRows(engine, engine.models.get('installation')!).orderBy('t.id', 'desc');
    const direct = await query.execute();
    const read = await engine.reads!.rows(query.compile());
    expect(read).toEqual(direct);
    const listed = await h.admin('GET', '/v1/admin/installation/get', { query: { sortBy: 'id', sortOrder: 'desc', pageSize: 1 } });
    expect(listed.body.data.rows[0]).toMatchObject({ id: add.body.data.id, name: 'tv-read-path', userId: 'u-read' });
  });
  },
  { config: { sqliteReadWorkers: 2 } },
);

describe('a list read past its time limit (sqlite)', () => {
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ app, cleanup } = await startApp('sqlite', { config: { dbStatementTimeoutMs: 1, sqliteReadWorkers: 2 } }));
    const rows = Array.from({ length: 2000 }, (_, i) => ({ appInstallId: `slow-${i}`, email: `user${i}@example.com`, login: `login${i}`, active: 'yes' }));
    await app.engine.db.transaction().execute(async (trx) => {
      for (let round = 0; round < 50; round++) await trx.insertInto('app_infos').values(rows.map((r) => ({ ...r, appInstallId: `${r.appInstallId}-${round}` }))).execute();
    });
  });
  afterAll(async () => {
    await app.close();
    await cleanup();
  });

  it('is stopped with a 503 that says so, and the server goes on answering', async () => {
    const login = await app.inject({ method: 'POST', url: '/v1/user/login', payload: ADMIN });
    const token = login.json().data.token as string;
    // A one-letter contains filter (too short for the trigram index) that matches nothing scans all 100,000 rows: far longer than 1 ms.
    const slow = await app.inject({ url: '/v1/admin/appinfo/get?email=q&sortBy=login&sortOrder=desc', headers: { authorization: token } });
    expect(slow.statusCode).toBe(503);
    expect(slow.headers['retry-after']).toBeDefined();
    expect(slow.json()).toEqual({ result: false, code: 'ERR_UNAVAILABLE', message: expect.stringMatching(/^The list query took longer than 1 ms and was stopped; narrow the filters/) });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    // The stopped worker was replaced: the next read is served again (and stopped again, for the same reason).
    const again = await app.inject({ url: '/v1/admin/appinfo/get?email=q', headers: { authorization: token } });
    expect(again.statusCode).toBe(503);
  });
});

/** Threads of a process at nice 10: the SQLite read workers (server/db/read-pool.ts WORKER_NICE). */
function readWorkerThreads(pid: number): number {
  let count = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      // Field 19 of stat is the nice value; the fields after the command name in parentheses start at field 3.
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === 10) count++;
    } catch {
      // The thread ended meanwhile.
    }
  }
  return count;
}

describe.runIf(process.platform === 'linux')('a server with its list read workers on by default (sqlite, its own process)', () => {
  it('reads lists on its two workers and exits promptly on SIGTERM, with reads in flight', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'panel-read-workers-'));
    try {
      // No SQLITE_READ_WORKERS: the default.
      const server = await startServerProcess(dataDir, { SQLITE_READ_WORKERS: '' });
      const pid = server.child.pid!;
      for (let i = 0; i < 50 && readWorkerThreads(pid) < 2; i++) await new Promise((r) => setTimeout(r, 100));
      expect(readWorkerThreads(pid)).toBe(2);
      const token = await server.login();
      const list = () => fetch(`${server.url}/v1/admin/appinfo/get?page=1&pageSize=20&sortBy=email&sortOrder=desc`, { headers: { authorization: token } });
      expect((await list()).status).toBe(200);
      const inFlight = Array.from({ length: 8 }, () => list().then((r) => r.status, () => 0));
      const started = Date.now();
      const code = await server.stop();
      const took = Date.now() - started;
      expect(code).toBe(0);
      expect(took, `exited ${took} ms after SIGTERM`).toBeLessThan(3000);
      // Each read in flight was answered (200, or 503 "shutting down") or its connection closed: none hangs.
      for (const status of await Promise.all(inFlight)) expect([0, 200, 503]).toContain(status);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
