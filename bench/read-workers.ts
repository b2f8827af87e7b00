// How list reads share the machine with the rest of the server (issue 14): /healthz and the device lookup alone and
// while two clients loop the heaviest list query, for several settings of the list reads in the same run (the tables
// are filled once): on SQLite the event loop, one or two worker threads, at normal or lowered priority; on PostgreSQL
// how many list reads one process runs at once. Ratios only: the machine is shared, absolutes wander.
//   npm run bench -- read-workers [--rows 200000] [--seconds 1] [--rounds 5] [--dialect sqlite|postgres] [--heavy contains|relation]
import { startApp, ADMIN, type Dialect } from '../tests/server/harness.ts';
import { createReads, type ReadPoolOptions } from '../server/db/read-pool.ts';
import { generate, HEAVY, HEAVY_RELATION } from './lists.ts';
import { load, seed, type Load } from './lookup.ts';
import { option } from './options.ts';

const ROWS = Number(option('rows', '200000'));
const DURATION_MS = Number(option('seconds', '1')) * 1000;
const CLIENTS = 10;

interface Variant {
  name: string;
  options: Partial<ReadPoolOptions>;
}

const VARIANTS: Record<Dialect, Variant[]> = {
  sqlite: [
    { name: 'event loop (0 workers)', options: { workers: 0 } },
    { name: '2 workers, nice 0', options: { workers: 2, nice: 0 } },
    { name: '2 workers, nice 10', options: { workers: 2, nice: 10 } },
    { name: '1 worker, nice 0', options: { workers: 1, nice: 0 } },
    { name: '1 worker, nice 10', options: { workers: 1, nice: 10 } },
  ],
  postgres: [
    { name: 'any number at once (pool of 10)', options: { atOnce: 10 } },
    { name: '2 at once', options: { atOnce: 2 } },
    { name: '1 at once', options: { atOnce: 1 } },
  ],
};

interface Figures {
  variant: string;
  health: Load[];
  healthBusy: Load[];
  lookup: Load[];
  lookupBusy: Load[];
}

/** Rounds of every measurement: the variants take turns within each round, so a change in the machine's load meets them all. */
const ROUNDS = Number(option('rounds', '5'));

async function run(dialect: Dialect): Promise<Figures[]> {
  const { app, cleanup } = await startApp(dialect, { config: { publicRateLimit: { perMinute: 100_000_000 } } });
  try {
    const lookups = await seed(app, 0);
    await generate(app, ROWS);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const login = await fetch(`${base}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const heavy = (option('heavy', 'contains') === 'relation' ? HEAVY_RELATION : HEAVY).map((path) => ({ path, token }));
    const file = dialect === 'sqlite' ? `${app.engine.dataDir}/panel.sqlite` : undefined;
    const original = app.engine.reads;
    const variants = VARIANTS[dialect].map((v) => ({
      ...v,
      reads: createReads({ db: app.engine.db, file, timeoutMs: 15_000, ...v.options }),
      figures: { variant: v.name, health: [], healthBusy: [], lookup: [], lookupBusy: [] } as Figures,
    }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of variants) {
        app.engine.reads = v.reads;
        const first = await fetch(base + heavy[0].path, { headers: { authorization: token } });
        if (first.status !== 200) throw new Error(`${heavy[0].path}: HTTP ${first.status}`);
        v.figures.health.push(await load(base, ['/healthz'], [], CLIENTS, DURATION_MS));
        v.figures.healthBusy.push(await load(base, ['/healthz'], heavy, CLIENTS, DURATION_MS));
        v.figures.lookup.push(await load(base, lookups, [], CLIENTS, DURATION_MS));
        v.figures.lookupBusy.push(await load(base, lookups, heavy, CLIENTS, DURATION_MS));
      }
    }
    app.engine.reads = original;
    for (const v of variants) await v.reads.close();
    return variants.map((v) => v.figures);
  } finally {
    await app.close();
    await cleanup();
  }
}

const sum = (loads: Load[], of: (l: Load) => number) => loads.reduce((n, l) => n + of(l), 0);
/** The median of the rounds' ratios busy / alone (each pair measured back to back): robust to the machine's drift. */
const medianRatio = (busy: Load[], alone: Load[]) => {
  const ratios = busy.map((b, i) => b.rps / alone[i].rps).sort((x, y) => x - y);
  return ratios.length % 2 ? ratios[(ratios.length - 1) / 2] : (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
};

export async function readWorkers(): Promise<void> {
  const only = option('dialect', '');
  console.log(`\nlist reads against the rest of the server at ${ROWS.toLocaleString('en')} rows (${CLIENTS} clients, ${ROUNDS} x ${DURATION_MS / 1000} s each, the variants taking turns; x = median over the rounds of under 2 heavy list loops / alone, measured back to back)`);
  console.log(`${'dialect, list reads'.padEnd(44)} ${'/healthz alone'.padStart(14)} ${'busy'.padStart(8)} ${'x'.padStart(6)} ${'lookup alone'.padStart(13)} ${'busy'.padStart(8)} ${'x'.padStart(6)} ${'heavy/s'.padStart(8)}`);
  for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
    if (only && only !== dialect) continue;
    for (const f of await run(dialect)) {
      const rps = (loads: Load[]) => sum(loads, (l) => l.rps) / loads.length;
      const heavyRate = (sum(f.healthBusy, (l) => l.admin) + sum(f.lookupBusy, (l) => l.admin)) / ((2 * ROUNDS * DURATION_MS) / 1000);
      console.log(
        `${`${dialect}, ${f.variant}`.padEnd(44)} ${rps(f.health).toFixed(0).padStart(14)} ${rps(f.healthBusy).toFixed(0).padStart(8)} ${medianRatio(f.healthBusy, f.health).toFixed(2).padStart(6)} ${rps(f.lookup).toFixed(0).padStart(13)} ${rps(f.lookupBusy).toFixed(0).padStart(8)} ${medianRatio(f.lookupBusy, f.lookup).toFixed(2).padStart(6)} ${heavyRate.toFixed(1).padStart(8)}`,
      );
    }
  }
}
