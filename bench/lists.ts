// Lists at scale (issue 14): a generator fills the tables that grow with the number of TV devices (app infos,
// achieved goals, installations) to --rows each, then keep-alive load from another process measures the list
// calls, /healthz and the device lookup, alone and while two clients loop the heaviest list query; on SQLite and
// on PostgreSQL (a fresh database of the server tests' TEST_DATABASE_URL). One table, as ratios to /healthz alone
// in the same run: the machine is shared, absolutes wander. Each list case is looped WARM_UP_MS before it is measured.
//   npm run bench -- lists [--rows 1000000] [--seconds 3] [--dialect sqlite|postgres] [--read-workers N (default: the server's)]
//     [--only TEXT]   only the list cases whose name holds TEXT   [--directions both]   every sort both ways (default: one way each)
// The list cases are generated from the manifests of the filled tables' entities (cases() below): every sortable column
// under every filter, the screen's fixed filter always on, deep pages by number and by cursor. Each prints met/not met
// against the goal (>= 0.07x of /healthz around it, p99 <= 20 ms).
//     [--keep DIR]   keep the filled tables (SQLite under DIR, PostgreSQL in database bench_<rows>) and reuse them next run
//     [--rounds 5] [--round-seconds 1]   the rows under the heavy loops: alone and busy in interleaved rounds, median ratio
//     [--cases all|lists|busy]   only the list calls, or only the rows under the heavy loops
//   LIST_YIELD_MS / LIST_YIELD_SHARED_MS in the environment set the server's list yields, as they do for `npm start`.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { ADMIN, TEST_DATABASE_URL, startApp, type Dialect } from '../tests/server/harness.ts';
import { load, lookupPaths, seed, type Load } from './lookup.ts';
import { option } from './options.ts';

/** The rows per filled table and each case's measured time: --rows and --seconds, or what the caller of listsAtScale asks. */
let ROWS = Number(option('rows', '20000'));
let DURATION_MS = Number(option('seconds', process.env.BENCH_SECONDS ?? '3')) * 1000;
/** Clients looping a list call (autocannon -c 10 in the issue's measurements). */
const CLIENTS = 10;
const CHUNK = 1000;
/** The goal of each list call: this share of /healthz measured around it, and this p99. */
const LIST_RATIO = 0.07;
const LIST_P99_MS = 20;
/** The same calls looped before each list case is measured, not counted. */
const WARM_UP_MS = 500;
/** Rounds of the alone/busy pairs, and how long each of their measurements lasts. */
const ROUNDS = Number(option('rounds', '5'));
const ROUND_MS = Number(option('round-seconds', '1')) * 1000;
/** Which cases run: `lists` (the list calls), `busy` (the rows under the heavy loops) or `all`. */
let CASES = option('cases', 'all');

const VERSIONS = Array.from({ length: 40 }, (_, i) => `1.${i}.${i % 10}`);
const WHITELABELS = ['aurora', 'nordtv', 'kinomax'];
const PLATFORMS = ['tizen', 'webos', 'androidtv', 'vidaa', 'titan'];
const GOALS = ['firstLaunch', 'login', 'playback', 'purchase', 'settingsOpened', 'search', 'epgOpened', 'trailer'];

/** The tables generate() fills to --rows: the lists of the entities stored in them are the cases. */
const FILLED = ['app_infos', 'achieved_goals', 'installations', 'experiment_users'];

/** Pseudo-random but repeatable, so sort orders are not the insertion order. */
const scramble = (i: number) => ((i * 2_654_435_761) >>> 0).toString(36);

/** Multi-row inserts of `count` generated rows, CHUNK per statement, all in one transaction. */
async function fill(app: FastifyInstance, table: string, count: number, row: (i: number) => Record<string, unknown>): Promise<void> {
  await app.engine.db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += CHUNK) {
      const rows = [];
      for (let i = start; i < Math.min(count, start + CHUNK); i++) rows.push(row(i));
      await trx.insertInto(table).values(rows).execute();
    }
  });
}

export async function generate(app: FastifyInstance, rows: number): Promise<void> {
  const base = Date.parse('2024-01-01T00:00:00Z');
  const at = (i: number) => new Date(base + ((i * 7919) % rows) * 60_000).toISOString();
  await fill(app, 'app_infos', rows, (i) => ({
    appInstallId: `install-${scramble(i)}-${i}`,
    email: `user${scramble(i + 1)}@example.com`,
    login: `login-${scramble(i + 2)}`,
    version: VERSIONS[i % VERSIONS.length],
    whitelabel: WHITELABELS[i % 3],
    platform: PLATFORMS[i % 5],
    userId: `u${i % 50_000}`,
    active: i % 7 ? 'yes' : 'no',
  }));
  await fill(app, 'achieved_goals', rows, (i) => ({
    appInstallId: `install-${scramble(i)}-${i}`,
    userId: `u${i % 50_000}`,
    goalName: GOALS[i % GOALS.length],
    goalDateTime: at(i),
    goalParams: '{}',
    abtestingId: (i % 10) + 1,
    stuckingCount: i % 4,
  }));
  await fill(app, 'installations', rows, (i) => ({
    name: `tv-${scramble(i + 3)}`,
    userId: `u${i % 50_000}`,
    whitelabelId: (i % 3) + 1,
    createdAt: at(i),
    updatedAt: at(i + 1),
  }));
  // The users of experiments 2 and 3 (seed() made experiment 1, the lookup's): nine in ten in experiment 2, so the
  // screen of one experiment (/abtesting/2) lists ~0.9 rows of the table.
  const now = new Date().toISOString();
  const caps = app.engine.caps;
  const experiment = { whitelabelId: 1, platformIds: '[1]', modelNames: '[]', recordsCount: rows, isActive: caps.toDbBoolean(false), isCollecting: caps.toDbBoolean(false), isRandomSaveEnable: caps.toDbBoolean(false), probability: 1, versionsDeploymentSettings: '[]', createdAt: now };
  const [first] = await app.engine.db.insertInto('experiments').values([experiment, experiment]).returning('id').execute().then((r) => r.map((x) => Number(x.id)).sort((a, b) => a - b));
  await fill(app, 'experiment_users', rows, (i) => ({
    abtestingId: i % 10 ? first : first + 1,
    appInstallId: `install-${scramble(i + 4)}-${i}`,
    modelName: `model-${scramble(i + 5).slice(0, 3)}`,
    version: VERSIONS[i % VERSIONS.length],
    whitelabel: WHITELABELS[i % 3],
    platform: PLATFORMS[i % 5],
    userId: `u${i % 50_000}`,
    groupNumber: (i % 2) + 1,
  }));
  if (app.engine.caps.name === 'postgres') {
    // The steady state of tables that grew over months, not the hour after a bulk load: vacuumed (the visibility map
    // that lets an index-only scan skip the heap, hint bits set), analysed, and checkpointed. Otherwise autovacuum and
    // the checkpointer start on the 3,000,000 fresh rows while the cases run and take the cores from them.
    for (const table of FILLED) await sql`vacuum (analyze) ${sql.table(table)}`.execute(app.engine.db);
    // CHECKPOINT needs a superuser or pg_checkpoint: without, the checkpointer's own timing applies.
    await sql`checkpoint`.execute(app.engine.db).catch((e: Error) => console.log(`postgres: no checkpoint after the fill (${e.message})`));
  }
}

interface Case {
  name: string;
  path: string;
  /** Page `page` of this list by its page number first: the loop then asks for the page after it with its cursor. */
  cursorAfter?: boolean;
}

/** Which cases run: those whose name contains this text (--only), all by default. */
const ONLY = option('only', '');
/** Both directions of every sort (--directions both), or one: descending for even sortable positions, ascending for odd. */
const BOTH_DIRECTIONS = option('directions', 'one') === 'both';

/**
 * The cases, generated from the manifests of the filled tables' entities: every sortable column (a relation's field
 * included) under no filter and under each filter of the screen, the screen's fixed (required) filters always on; an
 * equality or prefix filter takes the value of a row in the middle of the table, a contains filter a 4-character
 * piece of it (many matches) and the whole value (few); then a deep page by number, the page after it by cursor,
 * and the same for the sort by a relation's field.
 */
async function cases(app: FastifyInstance, rows: number): Promise<Case[]> {
  const out: Case[] = [];
  const engine = app.engine;
  for (const manifest of engine.manifests) {
    const list = manifest.list;
    const action = Object.values(manifest.actions ?? {}).find((a) => a.kind === 'list' && a.method === 'GET');
    if (!manifest.table || !FILLED.includes(manifest.table) || !list || !action) continue;
    const [{ lo, hi }] = await engine.db.selectFrom(manifest.table).select([sql<number>`min(id)`.as('lo'), sql<number>`max(id)`.as('hi')]).execute();
    const sample = (await engine.db.selectFrom(manifest.table).selectAll().where('id', '>=', Math.floor((Number(lo) + Number(hi)) / 2)).orderBy('id').limit(1).executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!sample) continue;
    const value = (field: string) => String(sample[field] ?? '');
    const fixed = (list.filters ?? []).filter((f) => f.required);
    const base = fixed.map((f) => `&${f.param ?? f.field}=${encodeURIComponent(value(f.field))}`).join('');
    const label = `${manifest.entity}${fixed.length ? ` of one ${fixed.map((f) => f.field).join(', ')}` : ''}`;
    const variants: { name: string; query: string }[] = [{ name: '', query: '' }];
    for (const f of list.filters ?? []) {
      if (f.required || f.field.includes('.') || !(f.field in sample)) continue;
      const param = f.param ?? f.field;
      const whole = value(f.field);
      if (f.op === 'contains') {
        variants.push({ name: `${f.field} contains ${whole.slice(0, 4)} (many)`, query: `&${param}=${encodeURIComponent(whole.slice(0, 4))}` });
        variants.push({ name: `${f.field} contains whole value (few)`, query: `&${param}=${encodeURIComponent(whole)}` });
      } else if (f.op === 'prefix') variants.push({ name: `${f.field} prefix ${whole.slice(0, 4)}`, query: `&${param}=${encodeURIComponent(whole.slice(0, 4))}` });
      else variants.push({ name: `${f.field} = ${whole}`, query: `&${param}=${encodeURIComponent(whole)}` });
    }
    const sortable = list.sortable ?? ['id'];
    for (const variant of variants) {
      for (const [i, field] of sortable.entries()) {
        for (const direction of BOTH_DIRECTIONS ? ['asc', 'desc'] : [i % 2 ? 'asc' : 'desc']) {
          out.push({
            name: `${label}${variant.name ? `, ${variant.name}` : ''}, sort ${field} ${direction}`,
            path: `${action.path}?page=1&pageSize=20${base}${variant.query}&sortBy=${field}&sortOrder=${direction}`,
          });
        }
      }
    }
    // Deep pages: by number (the pager's jump to a page), and the next one by the cursor the page answered.
    const deepPage = Math.max(2, Math.floor(rows / 20 / 2));
    const deepSorts = ['', ...sortable.filter((f) => f.includes('.')).slice(0, 1).map((f) => `&sortBy=${f}&sortOrder=asc`)];
    for (const sort of deepSorts) {
      const what = sort ? `, sort ${/sortBy=([^&]+)/.exec(sort)![1]}` : '';
      out.push({ name: `${label}${what}, page ${deepPage.toLocaleString('en')} by number`, path: `${action.path}?page=${deepPage}&pageSize=20${base}${sort}` });
      out.push({ name: `${label}${what}, page ${(deepPage + 1).toLocaleString('en')} by cursor`, path: `${action.path}?page=${deepPage}&pageSize=20${base}${sort}`, cursorAfter: true });
    }
  }
  return out.filter((c) => c.name.includes(ONLY));
}

/** The slowest list: installations sorted by their whitelabel's name (a join). */
export const HEAVY_RELATION = ['/v1/admin/installation/get?page=1&pageSize=20&sortBy=whitelabel.name&sortOrder=asc', '/v1/admin/installation/get?page=1&pageSize=20&sortBy=whitelabel.name&sortOrder=desc'];
/** The heaviest list query: a contains filter matching nothing, sorted by a text column. */
export const HEAVY = ['/v1/admin/appinfo/get?email=nobody-at-all&pageSize=20', '/v1/admin/appinfo/get?login=nobody-at-all&pageSize=100&sortBy=email&sortOrder=desc'];

export interface Row {
  name: string;
  /** A list call (its goal is a throughput and a p99), a figure under the heavy loops (a share of alone), or a reference. */
  kind: 'list' | 'busy' | 'reference';
  r: Load;
  against: Load;
  /** Its own idle figure, measured in the same rounds, and the share of it (instead of r / against). */
  alone?: Load;
  ratio?: number;
}

/** The mean of the rounds' throughput, the median of their p99. */
function mean(loads: Load[]): Load {
  const p99s = loads.map((l) => l.p99).sort((a, b) => a - b);
  const sum = (f: (l: Load) => number) => loads.reduce((n, l) => n + f(l), 0);
  return { ...loads[0], rps: sum((l) => l.rps) / loads.length, p99: p99s[Math.floor(p99s.length / 2)], errors: sum((l) => l.errors), admin: sum((l) => l.admin) / loads.length };
}

/** The median over the rounds of busy / alone, each pair measured back to back: robust to the machine's drift. */
function medianRatio(busy: Load[], alone: Load[]): number {
  const ratios = busy.map((b, i) => b.rps / alone[i].rps).sort((x, y) => x - y);
  return ratios.length % 2 ? ratios[(ratios.length - 1) / 2] : (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
}

/**
 * The server on a fresh database, or with --keep DIR on the one an earlier run of the same --rows filled and kept
 * (SQLite under DIR, PostgreSQL in the database bench_<rows> beside TEST_DATABASE_URL's): filling 1,000,000 rows a
 * table takes 4 min on SQLite and 7 on PostgreSQL. Rows left by hand in a kept database are measured with the rest.
 */
async function openApp(dialect: Dialect): Promise<{ app: FastifyInstance; cleanup: () => Promise<void>; lookups: string[] }> {
  const fromEnv = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const config = {
    publicRateLimit: { perMinute: 100_000_000 },
    sqliteReadWorkers: option('read-workers', '') ? Number(option('read-workers', '')) : undefined,
    // The list reads' yields as the server takes them from its environment (a before/after of a default).
    listYieldMs: fromEnv('LIST_YIELD_MS'),
    listYieldSharedMs: fromEnv('LIST_YIELD_SHARED_MS'),
  };
  const keep = option('keep', '');
  let app: FastifyInstance;
  let cleanup = async () => {};
  if (!keep) ({ app, cleanup } = await startApp(dialect, { config }));
  else {
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const name = `bench_${ROWS}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      if (!(await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount) await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    }
    const dataDir = join(resolve(keep), `${dialect}-${ROWS}`);
    mkdirSync(dataDir, { recursive: true });
    const paths = { schemasDir: resolve('schemas'), distDir: join(dataDir, 'no-dist'), corsOrigins: [], publicUrl: undefined, panelHosts: undefined };
    app = await buildApp({ config: { ...config, ...paths, dataDir, databaseUrl, adminEmail: ADMIN.email, adminPassword: ADMIN.password } });
  }
  try {
    const [{ n }] = await app.engine.db.selectFrom('installations').select(sql<number>`count(*)`.as('n')).execute();
    if (Number(n) >= ROWS) {
      console.log(`${dialect}: the tables kept in ${keep} are used as they are`);
      return { app, cleanup, lookups: lookupPaths() };
    }
    if (Number(n)) throw new Error(`${dialect}: the kept database holds ${n} installations, not ${ROWS}: remove it (${keep}) and run again`);
    const lookups = await seed(app, 0);
    const t = Date.now();
    await generate(app, ROWS);
    console.log(`${dialect}: ${ROWS.toLocaleString('en')} rows each in ${FILLED.join(', ')} filled in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return { app, cleanup, lookups };
  } catch (error) {
    await app.close();
    await cleanup();
    throw error;
  }
}

async function run(dialect: Dialect): Promise<Row[]> {
  const { app, cleanup, lookups } = await openApp(dialect);
  const out: Row[] = [];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const login = await fetch(`${base}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const health = await load(base, ['/healthz'], [], CLIENTS, DURATION_MS);
    out.push({ name: '/healthz alone', kind: 'reference', r: health, against: health });
    // Each case against /healthz measured just before and just after it: on a shared machine one figure from the start drifts.
    let healthBefore = health;
    for (const c of CASES === 'busy' ? [] : await cases(app, ROWS)) {
      const first = await fetch(base + c.path, { headers: { authorization: token } });
      if (first.status !== 200) throw new Error(`${c.path}: HTTP ${first.status} ${await first.text()}`);
      let path = c.path;
      if (c.cursorAfter) {
        const { next } = ((await first.json()) as { data: { next?: string } }).data;
        if (!next) throw new Error(`${c.path}: no cursor in the answer`);
        const page = Number(new URL(base + c.path).searchParams.get('page'));
        path = c.path.replace(`page=${page}`, `page=${page + 1}`) + `&after=${encodeURIComponent(next)}`;
      }
      // The loader sends no token on its own loops: give the list calls theirs through the admin loops instead.
      const loops = Array.from({ length: CLIENTS }, () => ({ path, token }));
      // A warm-up first, not counted: the steady state is what the goals are about. Without it, whichever case came
      // first (the pool opening its connections, the server's code compiling) or met its index cold paid for it.
      await load(base, ['/healthz'], loops, 0, WARM_UP_MS);
      const r = await load(base, ['/healthz'], loops, 0, DURATION_MS);
      const healthAfter = await load(base, ['/healthz'], [], CLIENTS, ROUND_MS);
      const row: Row = { name: c.name, kind: 'list', r: adminAsLoad(r, DURATION_MS), against: mean([healthBefore, healthAfter]) };
      out.push(row);
      // As it goes: a run at a million rows lasts minutes per dialect.
      console.log(`${dialect}: ${c.name}: ${row.r.rps.toFixed(0)} req/s p99 ${row.r.p99.toFixed(0)} ms ${(row.r.rps / row.against.rps).toFixed(3)}x`);
      healthBefore = healthAfter;
    }
    if (CASES !== 'lists') out.push(...(await underHeavyLoops(base, token, lookups, health)));
  } finally {
    await app.close();
    await cleanup();
  }
  return out;
}

/** The rows under the heavy loops: /healthz and the device lookup alone and while two clients loop a heavy list. */
async function underHeavyLoops(base: string, token: string, lookups: string[], health: Load): Promise<Row[]> {
  const out: Row[] = [];
  // Alone and busy in interleaved rounds, each pair back to back, the ratio their median (as bench/read-workers.ts
  // does): one idle baseline measured once met a different machine than the busy runs after it.
  const heavy = HEAVY.map((path) => ({ path, token }));
  const slowest = HEAVY_RELATION.map((path) => ({ path, token }));
  const busy: { name: string; paths: string[]; loops: { path: string; token: string }[] }[] = [
    { name: '/healthz while 2 clients loop heavy list', paths: ['/healthz'], loops: heavy },
    { name: 'device lookup while 2 loop heavy list', paths: lookups, loops: heavy },
    { name: '/healthz while 2 loop sort whitelabel.name', paths: ['/healthz'], loops: slowest },
    { name: 'lookup while 2 loop sort whitelabel.name', paths: lookups, loops: slowest },
  ];
  const rounds = busy.map(() => ({ alone: [] as Load[], busy: [] as Load[] }));
  // The lookup's first calls build its snapshot (after the generator's writes): not part of any round.
  await load(base, lookups, [], CLIENTS, ROUND_MS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, b] of busy.entries()) {
      rounds[i].alone.push(await load(base, b.paths, [], CLIENTS, ROUND_MS));
      rounds[i].busy.push(await load(base, b.paths, b.loops, CLIENTS, ROUND_MS));
    }
  }
  out.push({ name: 'device lookup alone', kind: 'reference', r: mean(rounds[1].alone), against: health });
  for (const [i, b] of busy.entries()) out.push({ name: b.name, kind: 'busy', r: mean(rounds[i].busy), against: health, alone: mean(rounds[i].alone), ratio: medianRatio(rounds[i].busy, rounds[i].alone) });
  return out;
}

/** The list calls ran as the loader's admin loops (they carry a token): their count and latencies are the figures. */
function adminAsLoad(r: Load, durationMs: number): Load {
  return { ...r, rps: r.admin / (durationMs / 1000), p99: r.adminP99 ?? NaN, p50: r.adminP50 ?? NaN };
}

/** Each dialect's rows, or why it failed. */
export interface ListFigures {
  rows: number;
  byDialect: Map<Dialect, Row[] | string>;
}

/** Whether a list case meets its goal (>= LIST_RATIO of /healthz around it, p99 <= LIST_P99_MS). */
export const listMet = (row: Row): boolean => row.r.rps / row.against.rps >= LIST_RATIO && row.r.p99 <= LIST_P99_MS;

/** `settings` (from a report that runs the lists among other parts) override the command line's --rows, --seconds and --cases. */
export async function listsAtScale(settings: { rows?: number; seconds?: number; cases?: 'all' | 'lists' | 'busy' } = {}): Promise<ListFigures> {
  if (settings.rows !== undefined) ROWS = settings.rows;
  if (settings.seconds !== undefined) DURATION_MS = settings.seconds * 1000;
  if (settings.cases !== undefined) CASES = settings.cases;
  const only = option('dialect', '');
  const results = new Map<Dialect, Row[] | string>();
  for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
    if (only && only !== dialect) continue;
    try {
      results.set(dialect, await run(dialect));
    } catch (error) {
      results.set(dialect, (error as Error).message);
    }
  }
  const names = [...results.values()].find((v): v is Row[] => Array.isArray(v))?.map((r) => r.name) ?? [];
  const met = listMet;
  const cell = (row?: Row) =>
    row
      ? `${row.r.rps.toFixed(row.r.rps < 10 ? 1 : 0).padStart(7)} req/s p99 ${(Number.isNaN(row.r.p99) ? '-' : row.r.p99.toFixed(0)).padStart(5)} ms ${(row.ratio ?? row.r.rps / row.against.rps).toFixed(3).padStart(6)}x${row.r.errors ? ` ${row.r.errors} err` : ''}${row.kind === 'busy' ? ` (lists ${Math.round(row.r.admin / (ROUND_MS / 1000))}/s)` : ''}${row.kind === 'list' ? (met(row) ? ' met' : ' NOT MET') : ''}`
      : '';
  console.log(`\nlists at ${ROWS.toLocaleString('en')} rows (${CLIENTS} clients, ${DURATION_MS / 1000} s per case after ${WARM_UP_MS / 1000} s of warm-up; x = share of /healthz alone, measured around each case; the rows under 2 heavy loops: median over ${ROUNDS} rounds of busy / alone, each pair ${ROUND_MS / 1000} s back to back)`);
  const width = Math.max(44, ...names.map((n) => n.length));
  console.log(`goal of each list call: >= ${LIST_RATIO}x of /healthz and p99 <= ${LIST_P99_MS} ms`);
  console.log(`${'case'.padEnd(width)} ${[...results.keys()].map((d) => d.padEnd(60)).join(' ')}`);
  for (const name of names) {
    console.log(`${name.padEnd(width)} ${[...results.values()].map((v) => (Array.isArray(v) ? cell(v.find((r) => r.name === name)) : '').padEnd(60)).join(' ')}`);
  }
  for (const [dialect, v] of results) if (Array.isArray(v)) { const lists = v.filter((r) => r.kind === 'list'); console.log(`${dialect}: ${lists.filter(met).length} of ${lists.length} list cases met`); }
  for (const [dialect, v] of results) if (!Array.isArray(v)) console.log(`${dialect}: failed (${v})`);
  return { rows: ROWS, byDialect: results };
}
