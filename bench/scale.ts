// The scale report (issue 14, point 5): every figure the issue names, measured in one run on this machine, and one
// table of them beside their baselines (react-admin, the same call alone, /healthz), the ratios and the issue's goals.
// The parts are the sub-benches (lists.ts, client.ts, ip-import.ts, json-body.ts), which print their own tables as
// they go; the panel is built once for the client figures and the IP import.
//   npm run bench -- --rows 1000000   (or `npm run bench -- scale ...`)
//     [--rows 20000] [--dialect sqlite|postgres] [--runs 3] [--ip-lines 1000000] [--mib 51]
//     [--no-lists] [--no-client] [--no-ip-import] [--no-json-body]   (and the lists' --seconds, --rounds, --round-seconds, --keep DIR)
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { listsAtScale } from './lists.ts';
import { buildPanel, clientFigures } from './client.ts';
import { ipImport } from './ip-import.ts';
import { jsonBody } from './json-body.ts';
import { table, type Figure } from './goals.ts';
import { clientTable, fleetFigures, floorTable, ipImportFigures, jsonBodyFigures, listFigures, listSummary, lookupFigures } from './figures.ts';
import { lookupRounds } from './lookup.ts';
import { fleet } from './fleet.ts';
import { enabled, option } from './options.ts';

/** A part that failed is one row saying so; the others still run. */
async function part(name: string, figures: Figure[], measure: () => Promise<Figure[]>): Promise<void> {
  try {
    figures.push(...(await measure()));
  } catch (error) {
    console.log(`${name}: failed: ${(error as Error).stack ?? String(error)}`);
    figures.push({ name, value: NaN, unit: 'ms', goals: [], failed: (error as Error).message });
  }
}

const machine = () => `${cpus().length} cores, load ${loadavg().map((n) => n.toFixed(1)).join(' ')}`;

/**
 * Issue 34's report (`npm run bench`, the default `all`): the device lookup against /healthz and under two heavy list
 * loops on both dialects (bench/lookup.ts), the lists at --rows (default 100,000; 1,000,000 on request, with --keep to
 * reuse the filled tables) summarised per dialect as cases met / total and the worst case, the panel against the grid
 * alone and react-admin (bench/client.ts), and the fleet's day against the capacity model (bench/fleet.ts); then ONE
 * table of them with the issue's goals, and the load average at the start and the end.
 *   npm run bench [-- all --rows 1000000 --keep DIR --dialect sqlite|postgres --list-seconds 1 --runs 3 --hour-seconds 4
 *     --no-lookup --no-lists --no-client --no-fleet]
 */
export async function issue34Report(): Promise<void> {
  const started = Date.now();
  const rows = Number(option('rows', '100000'));
  const only = option('dialect', '');
  const dialects = (['sqlite', 'postgres'] as const).filter((d) => !only || d === only);
  const atStart = machine();
  console.log(`issue 34 report, ${new Date().toISOString()}, ${atStart}`);
  const figures: Figure[] = [];
  if (enabled('lookup')) for (const d of dialects) await part(`${d}: device lookup`, figures, async () => lookupFigures(d, await lookupRounds(d)));
  if (enabled('lists')) await part('lists', figures, async () => listSummary(await listsAtScale({ rows, seconds: Number(option('list-seconds', '1')), cases: 'lists' })));
  if (enabled('client')) await part('client', figures, async () => floorTable(await clientFigures(undefined, Number(option('runs', '3')))));
  if (enabled('fleet')) await part('fleet', figures, async () => fleetFigures(await fleet(Number(option('hour-seconds', '4')))));
  console.log(`\nissue 34: ${((Date.now() - started) / 60_000).toFixed(1)} min, lists at ${rows.toLocaleString('en')} rows; at the start ${atStart}; at the end ${machine()} (a shared machine: the ratios are the figures to read)`);
  console.log(table(figures, 34));
}

export async function scaleReport(): Promise<void> {
  const started = Date.now();
  const rows = Number(option('rows', '20000'));
  const dialect = option('dialect', '');
  console.log(`scale report at ${rows.toLocaleString('en')} rows, ${new Date().toISOString()}, ${machine()}`);
  const figures: Figure[] = [];
  const build = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  try {
    if (enabled('lists')) await part('lists', figures, async () => listFigures(await listsAtScale()));
    let panel: string | undefined;
    const panelBuilt = () => (panel ??= buildPanel(join(build, 'panel')));
    if (enabled('client')) await part('client', figures, async () => clientTable(await clientFigures(panelBuilt(), Number(option('runs', '3')))));
    if (enabled('ip-import')) {
      const argv = ['--lines', option('ip-lines', '1000000'), ...(dialect ? ['--dialect', dialect] : [])];
      await part('IP import', figures, async () => ipImportFigures(await ipImport(argv, panelBuilt())));
    }
    if (enabled('json-body')) await part('JSON body', figures, async () => jsonBodyFigures(await jsonBody()));
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
  console.log(`\nscale report: ${rows.toLocaleString('en')} rows, ${((Date.now() - started) / 60_000).toFixed(1)} min, ${machine()} (a shared machine: the ratios are the figures to read)`);
  console.log(table(figures));
}
