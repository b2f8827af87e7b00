// The IP import on the server (issue 14): one addArray call of N addresses (default 1,000,000, the most the
// call takes), timed from the request to the answer, with the longest the event loop was held meanwhile
// (perf_hooks.monitorEventLoopDelay): the time any other request, /healthz or a device lookup, would have
// waited behind it. On SQLite and on PostgreSQL (a fresh database of the server tests' TEST_DATABASE_URL).
//   npx tsx bench/ip-import.ts [lines] [sqlite|postgres]
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { ADMIN, DIALECTS, startApp, type Dialect } from '../tests/server/harness.ts';

/** `n` distinct addresses, as the import modal sends them: {ip, vendor}. */
function addresses(n: number): { ip: string; vendor: string }[] {
  const ips: { ip: string; vendor: string }[] = [];
  for (let i = 0; i < n; i++) ips.push({ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}${i % 3 ? '' : '/32'}`, vendor: i % 2 ? 'lg' : 'samsung' });
  return ips;
}

export async function ipImport(lines = 1_000_000, dialects: readonly Dialect[] = DIALECTS): Promise<void> {
  const body = Buffer.from(JSON.stringify({ ips: addresses(lines) }));
  console.log(`IP import: addArray of ${lines.toLocaleString('en')} addresses (${(body.length / 2 ** 20).toFixed(1)} MiB of JSON)`);
  console.log('| dialect | answer | import time | longest event-loop stall | p99 event-loop delay |');
  console.log('|---|---|---|---|---|');
  for (const dialect of dialects) {
    const { app, cleanup } = await startApp(dialect);
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const login = await fetch(`${base}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
      const token = ((await login.json()) as { data: { token: string } }).data.token;
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      const started = performance.now();
      const response = await fetch(`${base}/v1/admin/testersIP/addArray`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: new Uint8Array(body),
      });
      const answer = await response.text();
      const ms = performance.now() - started;
      delay.disable();
      const stored = await app.engine.db.selectFrom('tester_ips').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      console.log(
        `| ${dialect} | ${response.status} ${answer.slice(0, 40)}, ${Number(stored.n).toLocaleString('en')} rows | ${(ms / 1000).toFixed(2)} s | ` +
          `${(delay.max / 1e6).toFixed(0)} ms | ${(delay.percentile(99) / 1e6).toFixed(0)} ms |`,
      );
    } finally {
      await app.close();
      await cleanup();
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.argv[3] as Dialect | undefined;
  await ipImport(process.argv[2] ? Number(process.argv[2]) : undefined, which ? [which] : DIALECTS);
}
