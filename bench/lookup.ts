// Device lookup throughput (docs/device-api.md, issue 34 item 1), on SQLite and on PostgreSQL (a fresh database of the
// server tests' TEST_DATABASE_URL): 10,000 devices from 10,000 addresses, a tenth of them first calls joining a
// collection (bench/device-traffic.ts), at 10 connections, against /healthz sent by the same loader in the same round,
// and while two staff clients loop the heaviest list; 3 rounds, each figure's median and spread, met / not met.
// The older helpers here (load, seed, lookupPaths) also serve bench/lists.ts and bench/read-workers.ts.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { cpus, loadavg } from 'node:os';
import { ADMIN, startApp, type Dialect } from '../tests/server/harness.ts';
import { deviceMix, portOf, seedCollecting, sendTraffic, type TrafficFigures } from './device-traffic.ts';
import { option } from './options.ts';

/** The heaviest staff list of bench/lists.ts (HEAVY there): a text matching none of 200,000 app infos, a scan and a count each. */
const HEAVY_LISTS = ['/v1/admin/appinfo/get?email=nobody-at-all&pageSize=20', '/v1/admin/appinfo/get?login=nobody-at-all&pageSize=100&sortBy=email&sortOrder=desc'];

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

const ROUNDS = 3;
const ROUND_MS = Number(process.env.BENCH_SECONDS ?? 3) * 1000;
const CONNECTIONS = 10;
const DEVICES = 10_000;
/** Issue 34, item 1. */
export const LOOKUP_GOALS = { ofHealth: 0.8, p99Ms: 5, busyOfIdle: 0.8 };

export interface LookupRound {
  health: TrafficFigures;
  lookup: TrafficFigures;
  busy: TrafficFigures;
  /** A lookup's answer, the same bytes and headers, from a route of this bench that does nothing else: what the lookup costs over its own transport. */
  bytes: TrafficFigures;
}

/** The bench's route answering a lookup's bytes (the text a member's lookup answered), with the lookup's headers. */
const BYTES_PATH = '/bench/lookup-bytes';

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Issue 34's lookup: 10,000 devices from 10,000 addresses (X-Forwarded-For through a trusted proxy, at the default
 * per-address limit), a tenth first calls joining a collection, at 10 connections; against /healthz sent by the
 * same loader from the same addresses in the same round; and while two staff clients loop the heaviest list.
 */
async function realistic(label: string, dialect: Dialect): Promise<LookupRound[]> {
  const { app, cleanup } = await startApp(dialect, { config: { trustedProxies: ['127.0.0.1'] } });
  try {
    await seed(app);
    await seedCollecting(app);
    let answer = '';
    app.get(BYTES_PATH, async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'private, no-store').send(answer));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = portOf(app);
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const heavy = HEAVY_LISTS.map((path) => ({ path, token }));
    const devices = deviceMix(DEVICES);
    const health = devices.map((d) => ({ path: '/healthz', address: d.address }));
    const bytes = devices.map((d) => ({ path: BYTES_PATH, address: d.address }));
    answer = await (await fetch(`${base}${lookupPaths()[2]}`)).text();
    // Warm: the snapshot loaded, the statements prepared, the code compiled; not counted.
    await sendTraffic(port, devices, { connections: CONNECTIONS, durationMs: 1500 });
    await sendTraffic(port, health, { connections: CONNECTIONS, durationMs: 500 });
    const rounds: LookupRound[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const h = await sendTraffic(port, health, { connections: CONNECTIONS, durationMs: ROUND_MS });
      const l = await sendTraffic(port, devices, { connections: CONNECTIONS, durationMs: ROUND_MS });
      const b = await sendTraffic(port, devices, { connections: CONNECTIONS, durationMs: ROUND_MS, admin: heavy });
      const s = await sendTraffic(port, bytes, { connections: CONNECTIONS, durationMs: ROUND_MS });
      rounds.push({ health: h, lookup: l, busy: b, bytes: s });
      const odd = (f: TrafficFigures) => (Object.keys(f.statuses).length ? ` answers not 200: ${JSON.stringify(f.statuses)}` : '');
      console.log(
        `  ${label} round ${round + 1}: /healthz ${h.rps.toFixed(0)} req/s p99 ${h.p99.toFixed(1)} ms | lookup ${l.rps.toFixed(0)} req/s p99 ${l.p99.toFixed(1)} ms (${l.fresh} joined)${odd(l)} | busy ${b.rps.toFixed(0)} req/s p99 ${b.p99.toFixed(1)} ms, ${b.admin} lists p50 ${b.adminP50?.toFixed(0)} ms${odd(b)} | its bytes alone ${s.rps.toFixed(0)} req/s p99 ${s.p99.toFixed(1)} ms | load ${loadavg()[0].toFixed(1)}`,
      );
    }
    return rounds;
  } finally {
    await app.close();
    await cleanup();
  }
}

/** The goal table of the realistic runs: median over the rounds, and the spread (lowest-highest round). */
function report(label: string, rounds: LookupRound[]): void {
  const ofHealth = rounds.map((r) => r.lookup.rps / r.health.rps);
  const p99 = rounds.map((r) => r.lookup.p99);
  const busy = rounds.map((r) => r.busy.rps / r.lookup.rps);
  const spread = (v: number[], digits = 2) => `${Math.min(...v).toFixed(digits)}-${Math.max(...v).toFixed(digits)}`;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`  ${label}: lookup / /healthz ${median(ofHealth).toFixed(2)}x (rounds ${spread(ofHealth)}), goal >= ${LOOKUP_GOALS.ofHealth}x: ${met(median(ofHealth) >= LOOKUP_GOALS.ofHealth)}`);
  console.log(`  ${label}: lookup p99 ${median(p99).toFixed(1)} ms (rounds ${spread(p99, 1)}), goal <= ${LOOKUP_GOALS.p99Ms} ms: ${met(median(p99) <= LOOKUP_GOALS.p99Ms)}`);
  const bytes = rounds.map((r) => r.lookup.rps / r.bytes.rps);
  const bytesOfHealth = rounds.map((r) => r.bytes.rps / r.health.rps);
  console.log(`  ${label}: lookup / its answer's bytes from a route doing nothing else ${median(bytes).toFixed(2)}x (rounds ${spread(bytes)}); those bytes / /healthz ${median(bytesOfHealth).toFixed(2)}x (no goal: what the lookup's own work costs, and what its transport does)`);
  console.log(`  ${label}: lookup under 2 heavy list loops / idle ${median(busy).toFixed(2)}x (rounds ${spread(busy)}), goal >= ${LOOKUP_GOALS.busyOfIdle}x: ${met(median(busy) >= LOOKUP_GOALS.busyOfIdle)}`);
}

export async function lookupThroughput(): Promise<void> {
  console.log(`lookup: ${DEVICES.toLocaleString('en')} devices from as many addresses (a tenth first calls joining a collection), ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_MS / 1000} s per figure; ${cpus().length} cores, load ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  const only = option('dialect', '');
  const results: [string, LookupRound[]][] = [];
  for (const [label, dialect] of [['SQLite', 'sqlite'], ['PostgreSQL', 'postgres']] as const) {
    if (only && only !== dialect) continue;
    try {
      results.push([label, await realistic(label, dialect)]);
    } catch (error) {
      console.log(`lookup (${label}): failed (${(error as Error).message})`);
    }
  }
  console.log(`lookup against its goals (issue 34, item 1; median of ${ROUNDS} rounds, load ${loadavg().map((n) => n.toFixed(1)).join(' ')}):`);
  for (const [label, rounds] of results) report(label, rounds);
}

/** The realistic rounds of one dialect, for issue 34's one table (bench/scale.ts): the same runs lookupThroughput prints. */
export const lookupRounds = (dialect: Dialect): Promise<LookupRound[]> => realistic(dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL', dialect);
