// CSV export at a million rows: the server (its own process, so its memory is its own) exports the users log
// of 1,000,000 rows while this script samples its resident memory, on SQLite and on PostgreSQL (a fresh database
// of the server tests' TEST_DATABASE_URL). The export streams keyset batches, so the peak should stay near the
// idle figure whatever the row count.
//   npm run bench export            (BENCH_EXPORT_ROWS overrides the row count, BENCH_EXPORT_DIALECT=sqlite|postgres runs one)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { freePort } from '../tests/e2e/harness.ts';
import { freshPostgresDatabase, type Dialect } from '../tests/server/harness.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Fills the users log with `ROWS` rows beside what the server wrote. */
async function fill(dialect: Dialect, dataDir: string, databaseUrl?: string) {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(
      `insert into user_logs ("userId", "userRole", "userEmail", "baseUrl", "routePath", "createdAt")
       select i % 50, 'developer', 'user' || (i % 50) || '@example.com', '/v1/admin/platform', case when i % 3 = 0 then 'add' else 'edit' end,
              timestamptz '2023-11-14' + i * interval '1 second'
       from generate_series(1, $1::int) as i`,
      [ROWS],
    );
    await client.end();
    return;
  }
  const sqlite = new SQLite(join(dataDir, 'panel.sqlite'));
  const insert = sqlite.prepare('insert into user_logs (userId, userRole, userEmail, baseUrl, routePath, createdAt) values (?, ?, ?, ?, ?, ?)');
  sqlite.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      insert.run(i % 50, 'developer', `user${i % 50}@example.com`, '/v1/admin/platform', i % 3 ? 'edit' : 'add', new Date(1_700_000_000_000 + i * 1000).toISOString());
    }
  })();
  sqlite.close();
}

export async function exportMemory(): Promise<void> {
  const only = process.env.BENCH_EXPORT_DIALECT as Dialect | undefined;
  for (const dialect of ['sqlite', 'postgres'] as const) if (!only || only === dialect) await exportOn(dialect);
}

async function exportOn(dialect: Dialect): Promise<void> {
  const database = dialect === 'postgres' ? await freshPostgresDatabase() : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // node itself (not npx) so the pid is the server's.
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: resolve(import.meta.dirname, '..'),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: database?.url ?? '', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const fillStarted = performance.now();
    await fill(dialect, dataDir, database?.url);
    console.log(`export (${dialect}): filled ${ROWS.toLocaleString('en')} users-log rows in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`);

    const login = await fetch(`${base}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const headers = { authorization: token };
    // Warm up the code paths (a one-page list and a small export) before the idle figure.
    await (await fetch(`${base}/v1/admin/userlogs/get?pageSize=1000`, { headers })).arrayBuffer();
    await (await fetch(`${base}/v1/admin/userlogs/get/export.csv?userId=999`, { headers })).arrayBuffer();
    const before = rssMb(server.pid!);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid!))), 50);
    const started = performance.now();
    const response = await fetch(`${base}/v1/admin/userlogs/get/export.csv`, { headers });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = rssMb(server.pid!);
    console.log(
      `export (${dialect}): ${(lines - 1).toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(0)} MB of CSV in ${seconds.toFixed(1)} s ` +
        `(${Math.round((lines - 1) / seconds).toLocaleString('en')} rows/s); server RSS before ${before.toFixed(0)} MB, ` +
        `peak during ${peak.toFixed(0)} MB, after ${after.toFixed(0)} MB`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }
}

if (process.argv[1] === import.meta.filename) await exportMemory();
