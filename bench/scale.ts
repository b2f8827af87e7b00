// The scale report (issue 14, point 5): every figure the issue names, measured in one run on this machine, and one
// table of them beside their baselines (react-admin, the same call alone, /healthz), the ratios and the goals.
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
import { clientTable, ipImportFigures, jsonBodyFigures, listFigures } from './figures.ts';
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

export async function scaleReport(): Promise<void> {
  const started = Date.now();
  const machine = () => `${cpus().length} cores, load ${loadavg().map((n) => n.toFixed(1)).join(' ')}`;
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
