// Benchmarks (never part of npm test): prints figures, compared as ratios measured in one run.
//   npm run bench            bundle sizes in Chromium (needs `npx vite build`) and API throughput on a temporary SQLite database
//   npm run bench durability   SQLite's synchronous=FULL against NORMAL (writes per second)
//   npm run bench ip-import [--lines N] [--before <folder>] ...   the IP import: the server's longest stall, the panel's preview time and long tasks
//   npm run bench export     CSV export of 1,000,000 rows: the server's memory before, during and after
//   npm run bench lists [--rows N] [--seconds S] [--dialect sqlite|postgres]   lists at scale, /healthz and the lookup under a heavy list loop (not part of `all`)
//   npm run bench client [--runs 5]   the panel against a react-admin app (bench/react-admin/) in Chromium: JS, login, edit, 500 rows, expand (not part of `all`)
//   npm run bench read-workers [--rows N] [--seconds S] [--dialect D] [--heavy contains|relation]   /healthz and the lookup under heavy lists, per setting of the list reads
//   npm run bench json-body [--mib 51]   the longest event-loop stall while a large JSON body is received and parsed
//   npm run bench fuzz [perRoute] [seed]   the long fuzzer run on SQLite and PostgreSQL (not part of `all`)
import { bundleSizes } from './bundle.ts';
import { apiThroughput } from './api.ts';
import { lookupThroughput } from './lookup.ts';
import { fuzz } from './fuzz.ts';
import { durability } from './durability.ts';
import { ipImport } from './ip-import.ts';
import { exportMemory } from './export.ts';
import { listsAtScale } from './lists.ts';
import { clientFigures } from './client.ts';
import { readWorkers } from './read-workers.ts';
import { jsonBody } from './json-body.ts';

const which = process.argv[2] ?? 'all';
if (which === 'all' || which === 'bundle') await bundleSizes();
if (which === 'all' || which === 'api') await apiThroughput();
if (which === 'all' || which === 'lookup') await lookupThroughput();
if (which === 'all' || which === 'durability') await durability();
if (which === 'ip-import') await ipImport(process.argv.slice(3));
if (which === 'export') await exportMemory();
if (which === 'fuzz') await fuzz(process.argv[3] ? Number(process.argv[3]) : undefined, process.argv[4] ? Number(process.argv[4]) : undefined);
if (which === 'lists') await listsAtScale();
if (which === 'client') await clientFigures();
if (which === 'read-workers') await readWorkers();
if (which === 'json-body') await jsonBody();
