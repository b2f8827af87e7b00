// Staff calls and /healthz while devices flood the public calls (issue 32): the staff list and /healthz alone, then
// while 30 addresses each send every device call their rate limit lets through, twice: starting with their buckets
// full (a burst of PUBLIC_RATE_BURST calls each, then the per-minute rate), and at the rate alone (what they can keep up
// once the burst is spent, as every minute after an attack's first), every one of them a write: a new device joining an A/B collection through the lookup, an app
// info report, an achieved goal. Throughput and p99 during the flood as ratios of idle, on SQLite and PostgreSQL,
// with the device budget off (as before issue 32) and on, in one run. The staff's calls come from one process, the
// devices' from another, from 127.0.0.10-39 (each its own address on the loopback). Both share this machine's
// cores with the server, which a real flood from elsewhere would not: the ratios are the worse for it.
//   npm run bench -- device-flood [--seconds 5] [--rounds 3] [--dialect sqlite|postgres] [--burst N]
import { performance } from 'node:perf_hooks';
import { ADMIN, startApp, type Dialect } from '../tests/server/harness.ts';
import { DEFAULT_DEVICE_WRITES, registerDeviceWrites, type DeviceWritesOptions } from '../server/actions/device/budget.ts';
import { option } from './options.ts';
import { runLoadProcess } from './load-process.ts';
import { defaultBurst } from '../server/config.ts';

const SECONDS = Number(option('seconds', '5'));
const ROUNDS = Number(option('rounds', '3'));
const ADDRESSES = 30;
const PER_MINUTE = 600;
/** Calls an address may send at once: the server's default (PUBLIC_RATE_BURST), or --burst (600: before issue 32). */
const BURST = Number(option('burst', String(defaultBurst(PER_MINUTE))));
/** Connections each flooding address keeps busy. */
const IN_FLIGHT = 4;
/** Connections looping each staff call. */
const STAFF_CONNECTIONS = 2;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** Answers by status. */
  statuses: Record<string, number>;
}

interface Phase {
  list: Figures;
  health: Figures;
  devices?: Figures;
  /** Share of the phase the server's event loop was busy. */
  elu: number;
}

/** The load, in a separate node process: staff loops, /healthz loops and, with `flood`, the devices. */
const LOADER = `
const http = require('node:http');
const { base, token, seconds, flood, addresses, perMinute, burst, inFlight, staff, subnet, startTokens } = JSON.parse(process.env.LOAD);
const until = Date.now() + seconds * 1000;
const figures = () => ({ times: [], statuses: {} });
const out = { list: figures(), health: figures(), devices: figures() };
const call = (agent, method, path, headers, body, into) => new Promise((resolve) => {
  const t = performance.now();
  const req = http.request(base + path, { method, agent, headers }, (res) => {
    res.resume();
    res.on('end', () => {
      into.times.push(performance.now() - t);
      into.statuses[res.statusCode] = (into.statuses[res.statusCode] || 0) + 1;
      resolve();
    });
  });
  req.on('error', () => { into.statuses.error = (into.statuses.error || 0) + 1; resolve(); });
  req.end(body);
});
const staffAgent = new http.Agent({ keepAlive: true, maxSockets: staff * 2 });
const loop = async (path, headers, into) => { while (Date.now() < until) await call(staffAgent, 'GET', path, headers, undefined, into); };
const loops = [];
for (let i = 0; i < staff; i++) {
  loops.push(loop('/v1/admin/combination/get?pageSize=20', { authorization: token }, out.list));
  loops.push(loop('/healthz', {}, out.health));
}
if (flood) {
  for (let a = 0; a < addresses; a++) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight, localAddress: '127.0.' + subnet + '.' + (10 + a) });
    // The client keeps to the server's limit: a bucket of burst calls, refilled at perMinute a minute.
    let tokens = startTokens, at = Date.now(), n = 0;
    const take = async () => {
      for (;;) {
        const now = Date.now();
        tokens = Math.min(burst, tokens + ((now - at) * perMinute) / 60000);
        at = now;
        if (tokens >= 1) { tokens -= 1; return; }
        await new Promise((r) => setTimeout(r, Math.ceil(((1 - tokens) * 60000) / perMinute)));
      }
    };
    const device = async () => {
      while (Date.now() < until) {
        await take();
        if (Date.now() >= until) break;
        const id = 'flood-' + a + '-' + n++;
        const json = { 'content-type': 'application/json' };
        if (n % 3 === 0) await call(agent, 'GET', '/v1/combination/get?whitelabel=aurora&platform=' + encodeURIComponent('{"name":"tizen"}') + '&appInstallId=' + id, {}, undefined, out.devices);
        else if (n % 3 === 1) await call(agent, 'POST', '/v1/appinfo/report', json, JSON.stringify({ appInstallId: id, version: '1.2.3', whitelabel: 'aurora', platform: 'tizen' }), out.devices);
        else await call(agent, 'POST', '/v1/achievedGoals/report', json, JSON.stringify({ appInstallId: id, goalName: 'started' }), out.devices);
      }
    };
    for (let i = 0; i < inFlight; i++) loops.push(device());
  }
}
const started = performance.now();
Promise.all(loops).then(() => {
  const elapsed = (performance.now() - started) / 1000;
  const summary = (f) => {
    f.times.sort((x, y) => x - y);
    const at = (q) => f.times[Math.min(f.times.length - 1, Math.floor(f.times.length * q))] || 0;
    return { rps: f.times.length / elapsed, p50: at(0.5), p99: at(0.99), statuses: f.statuses };
  };
  process.stdout.write(JSON.stringify({ list: summary(out.list), health: summary(out.health), devices: flood ? summary(out.devices) : undefined }));
  process.exit(0);
});
`;

const loader = (load: Record<string, unknown>) => runLoadProcess<Omit<Phase, 'elu'>>(LOADER, load);

/**
 * The staff's loops for SECONDS, with the devices' flood from another process (as from other machines) around them:
 * 'burst' starts every address with its bucket full (PER_MINUTE calls at once, then the rate), 'steady' at the rate
 * alone (the buckets drained by an earlier burst: what 30 addresses can keep up).
 */
async function phase(base: string, token: string, flood: false | 'burst' | 'steady', subnet = 0): Promise<Phase> {
  const elu = performance.eventLoopUtilization();
  const common = { base, token, addresses: ADDRESSES, perMinute: PER_MINUTE, burst: BURST, inFlight: IN_FLIGHT, subnet, startTokens: flood === 'burst' ? BURST : 0 };
  const [staff, devices] = await Promise.all([
    loader({ ...common, seconds: SECONDS, flood: false, staff: STAFF_CONNECTIONS }),
    flood ? loader({ ...common, seconds: SECONDS + 0.5, flood: true, staff: 0 }) : undefined,
  ]);
  return { list: staff.list, health: staff.health, devices: devices?.devices, elu: performance.eventLoopUtilization(elu).utilization };
}

/** What the flood writes into: a collecting experiment every new device joins, and a goal to report. */
async function seed(app: Awaited<ReturnType<typeof startApp>>['app']) {
  const db = app.engine.db;
  const caps = app.engine.caps;
  const now = new Date().toISOString();
  await db.insertInto('whitelabels').values({ name: 'aurora', feUrl: 'https://aurora.example.com/', deployConfiguration: '{}', createdAt: now, updatedAt: now }).execute();
  await db.insertInto('platforms').values({ name: 'tizen', createdAt: now, updatedAt: now }).execute();
  const builds = Array.from({ length: 40 }, (_, i) => ({
    name: `aurora-tizen-1.${i}.0`,
    ownWhitelabel: 'aurora',
    ownPlatform: 'tizen',
    ownVersion: `1.${i}.0`,
    ownResolution: '1080p',
    urls: JSON.stringify([`/builds/aurora/tizen/1.${i}.0/app.js`]),
    isAvailable: caps.toDbBoolean(true),
    createdAt: now,
    updatedAt: now,
  }));
  await db.insertInto('builds').values(builds).execute();
  const combinations = Array.from({ length: 200 }, (_, i) => ({ whitelabelId: 1, platformId: 1, buildId: (i % 40) + 1, appInstallId: `pinned-${i}`, customBuildUrls: '[]', forceLocalBuild: caps.toDbBoolean(false), isPublished: caps.toDbBoolean(false), createdAt: now, updatedAt: now }));
  await db.insertInto('combinations').values(combinations).execute();
  const settings = JSON.stringify([{ count: 5_000_000, groupName: 'A', files: { tizen: ['a.js'] } }, { count: 5_000_000, groupName: 'B', files: { tizen: ['b.js'] } }]);
  await db
    .insertInto('experiments')
    .values({ whitelabelId: 1, platformIds: '[1]', modelNames: '[]', recordsCount: 10_000_000, isActive: caps.toDbBoolean(true), isCollecting: caps.toDbBoolean(true), isRandomSaveEnable: caps.toDbBoolean(false), probability: 1, versionsDeploymentSettings: settings, createdAt: now })
    .execute();
  await db.insertInto('abtesting_goals').values({ goalName: 'started', createdAt: now, updatedAt: now }).execute();
}

const fmt = (f: Figures) => `${f.rps.toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(1).padStart(6)} ms  p99 ${f.p99.toFixed(1).padStart(7)} ms`;
const statuses = (f?: Figures) => (f ? Object.entries(f.statuses).map(([s, n]) => `${n} × ${s}`).join(', ') : '');

interface Variant {
  name: string;
  writes: Partial<DeviceWritesOptions>;
  idle: Phase[];
  flood: Phase[];
  steady: Phase[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The median round of each figure: rps and p99 of each phase, and their ratios flood / idle. */
function report(v: Variant): void {
  const pick = (phases: Phase[], key: 'list' | 'health' | 'devices') => ({
    rps: median(phases.map((p) => p[key]!.rps)),
    p50: median(phases.map((p) => p[key]!.p50)),
    p99: median(phases.map((p) => p[key]!.p99)),
    statuses: phases.reduce<Record<string, number>>((all, p) => {
      for (const [status, n] of Object.entries(p[key]!.statuses)) all[status] = (all[status] ?? 0) + n;
      return all;
    }, {}),
  });
  const ratios = (phases: Phase[], key: 'list' | 'health', of: 'rps' | 'p99') => phases.map((p, i) => p[key][of] / v.idle[i][key][of]);
  console.log(`  ${v.name}`);
  for (const [label, key] of [['staff list', 'list'], ['/healthz', 'health']] as const) {
    console.log(`    ${label.padEnd(11)} idle   ${fmt(pick(v.idle, key))}`);
    for (const [kind, phases] of [['burst', v.flood], ['steady', v.steady]] as const) {
      const flood = pick(phases, key);
      const odd = Object.keys(flood.statuses).some((s) => s !== '200') ? `  (${statuses(flood)})` : '';
      console.log(`    ${''.padEnd(11)} ${kind.padEnd(6)} ${fmt(flood)}   throughput ${median(ratios(phases, key, 'rps')).toFixed(2)}x, p99 ${median(ratios(phases, key, 'p99')).toFixed(2)}x${odd}`);
    }
  }
  console.log(`    devices     burst  ${fmt(pick(v.flood, 'devices'))}   ${statuses(pick(v.flood, 'devices'))} (all rounds)`);
  console.log(`    devices     steady ${fmt(pick(v.steady, 'devices'))}   ${statuses(pick(v.steady, 'devices'))} (all rounds)`);
  console.log(`    event loop busy ${(median(v.idle.map((p) => p.elu)) * 100).toFixed(0)}% idle, ${(median(v.flood.map((p) => p.elu)) * 100).toFixed(0)}% flood`);
}

/** One server per dialect; the variants take turns within each round, so a change in the machine's load meets them all. */
async function run(dialect: Dialect, variants: Variant[]): Promise<void> {
  const { app, cleanup } = await startApp(dialect, { config: { publicRateLimit: { perMinute: PER_MINUTE, burst: BURST } } });
  try {
    await seed(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const login = await fetch(`${base}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    // Warm: the lookup's snapshot is loaded and the statements prepared before the first phase.
    await fetch(`${base}/v1/combination/get?appInstallId=pinned-0`);
    let subnet = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of variants) {
        registerDeviceWrites(app.engine, v.writes);
        v.idle.push(await phase(base, token, false));
        // Each flood from addresses the limit has not seen yet, so each starts with full buckets.
        v.flood.push(await phase(base, token, 'burst', ++subnet));
        v.steady.push(await phase(base, token, 'steady', ++subnet));
      }
    }
    for (const v of variants) report(v);
  } finally {
    await app.close();
    await cleanup();
  }
}

/** `npm run bench -- device-flood`: both dialects unless --dialect names one. */
export async function deviceFlood(): Promise<void> {
  const only = option('dialect', '');
  for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
    if (only && only !== dialect) continue;
    console.log(`device flood (${dialect}: ${ADDRESSES} addresses at ${PER_MINUTE}/min each, bursts of ${BURST}, ${IN_FLIGHT} connections each; staff: ${STAFF_CONNECTIONS} connections per call; ${SECONDS} s per phase; medians of ${ROUNDS} rounds)`);
    await run(dialect, [
      // Before issue 32: every device write ran at once in its own transaction.
      { name: 'no device budget (before)', writes: { atOnce: 1_000_000, queued: 1_000_000_000, batch: 1, maxWaitMs: 1_000_000_000, share: 1 }, idle: [], flood: [], steady: [] },
      { name: 'device budget (the defaults)', writes: DEFAULT_DEVICE_WRITES[dialect], idle: [], flood: [], steady: [] },
    ]);
  }
}
