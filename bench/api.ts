// API throughput of a list on 20,000 rows against /healthz in the same process and run (a ratio, not a target).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';

const ROWS = 20_000;
const REQUESTS = 2_000;
const CONCURRENCY = 16;

async function measure(url: string, headers: Record<string, string>) {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next++;
        const t = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
        times.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { rps: times.length / seconds, p99: times[Math.floor(times.length * 0.99)] };
}

export async function apiThroughput(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'panel-bench-'));
  const app = await buildApp({ config: { dataDir, databaseUrl: undefined, adminEmail: 'bench@x.io', adminPassword: 'bench-password-1', distDir: join(dataDir, 'none') } });
  try {
    const now = new Date().toISOString();
    const rows = Array.from({ length: ROWS }, (_, i) => ({ name: `platform-${i}`, maxVersion: `${i % 99}.${i % 7}.${i % 5}`, createdAt: now, updatedAt: now }));
    for (let i = 0; i < rows.length; i += 500) await app.engine.db.insertInto('platforms').values(rows.slice(i, i + 500)).execute();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const login = await fetch(`${base}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@x.io', password: 'bench-password-1' }) });
    const headers = { Authorization: ((await login.json()) as { data: { token: string } }).data.token };
    const health = await measure(`${base}/healthz`, {});
    const page = await measure(`${base}/v1/admin/platform/get?page=1&pageSize=20`, headers);
    const deep = await measure(`${base}/v1/admin/platform/get?page=900&pageSize=20&sortBy=name&sortOrder=desc`, headers);
    const filtered = await measure(`${base}/v1/admin/platform/get?pageSize=20&name=orm-19`, headers);
    const line = (label: string, r: { rps: number; p99: number }) =>
      console.log(`${label.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} req/s  p99 ${r.p99.toFixed(1)} ms  (${((r.rps / health.rps) * 100).toFixed(1)}% of /healthz)`);
    console.log(`api (SQLite, ${ROWS} platforms, ${REQUESTS} requests, ${CONCURRENCY} at a time)`);
    line('/healthz', health);
    line('list, first page of 20', page);
    line('list, page 900 sorted by name desc', deep);
    line('list, name contains filter', filtered);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
