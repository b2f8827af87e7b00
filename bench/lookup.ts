// Device lookup throughput (docs/device-api.md) against /healthz in the same run, alone and while two heavy admin
// list queries loop; on SQLite and on PostgreSQL (a fresh database of the server tests' TEST_DATABASE_URL).
// The load comes from another process with keep-alive connections; the server's own CPU time and event-loop use
// per request are measured too. Figures are ratios measured in one run: the machine is shared, absolutes wander.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { ADMIN, startApp, type Dialect } from '../tests/server/harness.ts';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const CONCURRENCY = 32;
const APP_INFOS = 200_000;
const TESTER_IPS = 100_000;
const MEMBERS = 10_000;

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  admin: number;
  /** Server CPU (user + system) per answered request, in microseconds. */
  cpuUs: number;
  /** Share of the run the server's event loop was busy. */
  elu: number;
  /** Latencies of the admin loops' calls. */
  adminP50?: number;
  adminP99?: number;
}

/** The load generator, run as a separate node process: `concurrency` loops over `paths`, plus sequential admin loops. */
const LOADER = `
const http = require('node:http');
const { base, paths, concurrency, durationMs, admin } = JSON.parse(process.env.LOAD);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency + admin.length });
const get = (path, headers) => new Promise((resolve) => {
  const req = http.get(base + path, { agent, headers }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
  req.on('error', () => resolve(0));
});
const until = Date.now() + durationMs;
const times = [];
const adminTimes = [];
let errors = 0, adminDone = 0, next = 0;
const loop = async () => {
  while (Date.now() < until) {
    const path = paths[next++ % paths.length];
    const t = performance.now();
    const status = await get(path, {});
    times.push(performance.now() - t);
    if (status !== 200) errors++;
  }
};
const adminLoop = async ({ path, token }) => {
  while (Date.now() < until) { const t = performance.now(); const status = await get(path, { authorization: token }); adminTimes.push(performance.now() - t); if (status !== 200) errors++; adminDone++; }
};
const started = performance.now();
Promise.all([...Array.from({ length: concurrency }, loop), ...admin.map(adminLoop)]).then(() => {
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  adminTimes.sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({ adminP50: adminTimes[Math.floor(adminTimes.length * 0.5)], adminP99: adminTimes[Math.floor(adminTimes.length * 0.99)], count: times.length, rps: times.length / seconds, p50: times[Math.floor(times.length * 0.5)], p99: times[Math.floor(times.length * 0.99)], errors, admin: adminDone }));
  agent.destroy();
});
`;

/**
 * Runs the load from another process and measures this one, the server: besides req/s and latency, its CPU time
 * and event-loop use per request, which say what a call costs the server even when the client is the bottleneck.
 */
export function load(base: string, paths: string[], admin: { path: string; token: string }[] = [], concurrency = CONCURRENCY, durationMs = DURATION_MS): Promise<Load> {
  return new Promise((resolve, reject) => {
    const cpu = process.cpuUsage();
    const elu = performance.eventLoopUtilization();
    const child = spawn(process.execPath, ['-e', LOADER], { env: { ...process.env, LOAD: JSON.stringify({ base, paths, concurrency, durationMs, admin }) } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', () => {
      const used = process.cpuUsage(cpu);
      const busy = performance.eventLoopUtilization(elu);
      const result = JSON.parse(out) as Omit<Load, 'cpuUs' | 'elu'> & { count: number };
      resolve({ ...result, cpuUs: (used.user + used.system) / Math.max(1, result.count + result.admin), elu: busy.utilization });
    });
  });
}

/** Fills what the device lookup reads (and `appInfos` app infos); answers one lookup path per rule. */
export async function seed(app: FastifyInstance, appInfos = APP_INFOS): Promise<string[]> {
  const db = app.engine.db;
  const now = new Date().toISOString();
  const caps = app.engine.caps;
  const insert = async (table: string, rows: Record<string, unknown>[]) => {
    for (let i = 0; i < rows.length; i += 500) await db.insertInto(table).values(rows.slice(i, i + 500)).execute();
  };
  const whitelabels = ['aurora', 'nordtv', 'kinomax'];
  const platforms = ['tizen', 'webos', 'androidtv', 'vidaa', 'titan'];
  await insert('whitelabels', whitelabels.map((name) => ({ name, feUrl: `https://${name}.example.com/`, deployConfiguration: '{}', maxVersion: '01.20.34', imageHD: `/whitelabels/${name}_1280x720.png`, createdAt: now, updatedAt: now })));
  await insert('platforms', platforms.map((name) => ({ name, maxVersion: '01.20.34', createdAt: now, updatedAt: now })));
  const builds = [];
  for (const wl of whitelabels) {
    for (const platform of platforms) {
      for (let minor = 0; minor < 40; minor++) {
        for (const resolution of ['720p', '1080p']) {
          const version = `1.${minor}.${minor % 10}`;
          const name = `${wl}-${platform}-${version}-${resolution}`;
          const urls = JSON.stringify([`/builds/${wl}/${platform}/${version}/${resolution}/app.js`, `/builds/${wl}/${platform}/${version}/${resolution}/index.css`]);
          builds.push({ name, ownWhitelabel: wl, ownPlatform: platform, ownVersion: version, ownResolution: resolution, urls, isAvailable: caps.toDbBoolean(true), createdAt: now, updatedAt: now });
        }
      }
    }
  }
  await insert('builds', builds);
  const combos = [];
  for (let i = 0; i < 2000; i++) {
    combos.push({ whitelabelId: (i % 3) + 1, platformId: (i % 5) + 1, buildId: (i % builds.length) + 1, appInstallId: i < 1000 ? `pinned-${i}` : null, ipAddress: i >= 1000 ? `10.1.${(i >> 8) & 255}.${i & 255}` : null, customBuildUrls: '[]', forceLocalBuild: caps.toDbBoolean(false), isPublished: caps.toDbBoolean(false), createdAt: now, updatedAt: now });
  }
  combos.push({ whitelabelId: 1, platformId: 1, buildId: 1, appInstallId: null, ipAddress: null, customBuildUrls: '[]', forceLocalBuild: caps.toDbBoolean(false), isPublished: caps.toDbBoolean(true), createdAt: now, updatedAt: now });
  await insert('combinations', combos);
  await insert('tester_ips', Array.from({ length: TESTER_IPS }, (_, i) => ({ ip: `172.${16 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}/32`, vendor: 'lg', createdAt: now, updatedAt: now })));
  const settings = JSON.stringify([{ count: MEMBERS / 2, groupName: 'A', customUrl: 'https://cdn.example.com/a/', files: { webos: ['a.js'] } }, { count: MEMBERS / 2, groupName: 'B', customUrl: 'https://cdn.example.com/b/', files: { webos: ['b.js'] } }]);
  await insert('experiments', [{ whitelabelId: 2, platformIds: '[2]', modelNames: '[]', recordsCount: MEMBERS, isActive: caps.toDbBoolean(true), isCollecting: caps.toDbBoolean(false), isRandomSaveEnable: caps.toDbBoolean(false), probability: 1, versionsDeploymentSettings: settings, createdAt: now }]);
  await insert('experiment_users', Array.from({ length: MEMBERS }, (_, i) => ({ abtestingId: 1, appInstallId: `member-${i}`, groupNumber: (i % 2) + 1, whitelabel: 'nordtv', platform: 'webos' })));
  await insert('app_infos', Array.from({ length: appInfos }, (_, i) => ({ appInstallId: `install-${i}`, email: `user${i}@example.com`, login: `user${i}`, version: '1.20.34', whitelabel: 'aurora', platform: 'tizen', active: 'yes' })));
  return lookupPaths();
}

/** The device lookups of the rows seed() wrote: one query per rule, as a mix of starting TVs. */
export function lookupPaths(): string[] {
  const q = (params: Record<string, string>) => `/v1/combination/get?${new URLSearchParams(params)}`;
  const platform = (name: string) => JSON.stringify({ name });
  return [
    q({ whitelabel: 'aurora', platform: platform('tizen'), appInstallId: 'pinned-0' }),
    q({ whitelabel: 'kinomax', platform: platform('vidaa'), ipAddress: '10.1.3.233' }),
    q({ whitelabel: 'nordtv', platform: platform('webos'), appInstallId: 'member-7' }),
    q({ whitelabel: 'aurora', platform: platform('tizen'), appInstallId: 'someone' }),
    q({ whitelabel: 'kinomax', platform: platform('titan'), resolution: '1080p', appInstallId: 'someone-else' }),
  ];
}

async function run(label: string, dialect: Dialect) {
  const { app, cleanup } = await startApp(dialect, { config: { publicRateLimit: { perMinute: 100_000_000 } } });
  try {
    const lookups = await seed(app);
    // A fixed reply as long as the lookup's answers: what the bytes alone cost, apart from finding them.
    const answers: unknown[] = [];
    app.get('/bench/same-bytes', async () => answers[0]);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    for (const path of lookups) {
      const res = await fetch(base + path);
      const body = (await res.json()) as { data?: { matchedBy: string }; message?: string };
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.message}`);
      answers.push(body);
    }
    const login = await fetch(`${base}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    // Two screens of staff searching 200,000 app infos by a text that matches nothing: a full scan and a count each.
    const heavy = [
      { path: '/v1/admin/appinfo/get?email=nobody-at-all&pageSize=20', token },
      { path: '/v1/admin/appinfo/get?login=nobody-at-all&pageSize=100&sortBy=email&sortOrder=desc', token },
    ];
    const one = Date.now();
    await fetch(base + heavy[0].path, { headers: { authorization: token } });
    const heavyMs = Date.now() - one;

    const health = await load(base, ['/healthz']);
    const sameBytes = await load(base, ['/bench/same-bytes']);
    const lookup = await load(base, lookups);
    const healthBusy = await load(base, ['/healthz'], heavy);
    const lookupBusy = await load(base, lookups, heavy);
    const line = (name: string, r: Load, against: Load) =>
      console.log(
        `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(6)} req/s ${((r.rps / against.rps) * 100).toFixed(0).padStart(4)}%  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  server ${r.cpuUs.toFixed(0).padStart(4)} us CPU/req, loop ${(r.elu * 100).toFixed(0).padStart(3)}% busy${r.admin ? `  (${r.admin} admin lists)` : ''}${r.errors ? `  ${r.errors} errors` : ''}`,
      );
    console.log(`lookup (${label}: ${TESTER_IPS} tester IPs, 2,001 combinations, ${MEMBERS} experiment users; ${CONCURRENCY} connections, ${DURATION_MS / 1000} s each)`);
    line('/healthz', health, health);
    line('a fixed reply of the same bytes', sameBytes, health);
    line('GET /v1/combination/get (5 rules mixed)', lookup, health);
    console.log(`  while two admin lists loop (one alone: ${heavyMs} ms on ${APP_INFOS} app infos):`);
    line('/healthz', healthBusy, healthBusy);
    line('GET /v1/combination/get', lookupBusy, healthBusy);
  } finally {
    await app.close();
    await cleanup();
  }
}

export async function lookupThroughput(): Promise<void> {
  await run('SQLite', 'sqlite');
  try {
    await run('PostgreSQL', 'postgres');
  } catch (error) {
    console.log(`lookup (PostgreSQL): skipped (${(error as Error).message})`);
  }
}
