// The IP import while the server stops (issue 14: its body is read and, on SQLite, stored on a worker thread): a
// SIGTERM in the middle of an import still ends the process cleanly, and the list is stored whole or not at all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshPostgresDatabase } from './harness.ts';
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
