// Benchmarks (never part of npm test): prints figures, compared as ratios measured in one run.
//   npm run bench            issue 34's report (bench/scale.ts issue34Report): the device lookup against /healthz and under heavy lists on
//                            both dialects, the lists at 100,000 rows (every case the manifests generate: cases met / total, the worst),
//                            the panel against the grid alone and react-admin, the fleet's day against the capacity model; then ONE
//                            table of ratios with their goals (met / not met) and the load average at the start and the end
//   npm run bench -- all --rows 1000000 [--keep DIR] [--dialect D] [--list-seconds 1] [--runs 3] [--hour-seconds 4] [--no-lookup] [--no-lists] [--no-client] [--no-fleet]
//   npm run bench bundle | api | durability   bundle sizes in Chromium (needs `npx vite build`), API throughput, SQLite durability
//   npm run bench -- --rows N [--no-lists] [--no-client] [--no-ip-import] [--no-json-body] ...   (also `npm run bench -- scale ...`)
//                            issue 14's scale report (bench/scale.ts): lists at N rows (default 20,000) on both dialects, /healthz and
//                            the lookup under heavy lists, the panel against react-admin, the IP import, a 51 MiB JSON body; then ONE
//                            table of every figure, its baseline in the same run, the ratio, the issue's goal and whether it is met
// Without `--`, npm keeps `--flag value` for itself: `npm run bench scale --rows 5` works for one such flag, `--flag=value` always.
//   npm run bench durability   SQLite's synchronous=FULL against NORMAL (writes per second)
//   npm run bench ip-import [--lines N] [--before <folder>] ...   the IP import: the server's longest stall, the panel's preview time and long tasks
//   npm run bench export     CSV export of 1,000,000 rows: the server's memory before, during and after
//   npm run bench lists [--rows N] [--seconds S] [--dialect sqlite|postgres]   lists at scale, /healthz and the lookup under a heavy list loop (not part of `all`)
//   npm run bench client [--runs 5]   the panel against a react-admin app (bench/react-admin/) in Chromium: JS, login, edit, 500 rows, expand (not part of `all`)
//   npm run bench read-workers [--rows N] [--seconds S] [--dialect D] [--heavy contains|relation]   /healthz and the lookup under heavy lists, per setting of the list reads
//   npm run bench json-body [--mib 51]   the longest event-loop stall while a large JSON body is received and parsed
//   npm run bench lost-update   20 edits at once from one version, 5 rounds, per dialect: how many were accepted (not part of `all`)
//   npm run bench -- device-flood [--seconds 5] [--rounds 3] [--dialect D] [--burst N]   staff list and /healthz idle vs while 30 addresses flood the device calls
//   npm run bench floods [--logins 1000] [--seconds 5] [--rounds 3] [--dialect D]   staff lists and /healthz alone and during a flood of anonymous wrong logins (not part of `all`)
//   npm run bench -- lookup [--dialect D]   issue 34: 10,000 devices from 10,000 addresses at 10 connections against /healthz in the same rounds, and under 2 heavy list loops; met / not met
//   npm run bench -- fleet [--seconds 4]   issue 34: a day of a TV fleet against 2 processes on PostgreSQL and Redis, the capacity model's prediction beside the measure (not part of `all`)
//   npm run bench -- capacity-doc   writes the tables of docs/capacity.md from bench/capacity-model.ts (not part of `all`)
//   npm run bench lighthouse   Lighthouse's accessibility score of the login page and two lists, light and dark (needs `npx vite build`; not part of `all`)
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
import { lostUpdate } from './lost-update.ts';
import { floods } from './floods.ts';
import { issue34Report, scaleReport } from './scale.ts';
import { deviceFlood } from './device-flood.ts';
import { fleet } from './fleet.ts';
import { capacityDoc } from './capacity-doc.ts';
import { benchName } from './options.ts';

// Flags alone (`npm run bench -- --rows 1000000`, issue 14's command) ask for the scale report.
const which = benchName();
const NAMES = ['all', 'scale', 'bundle', 'api', 'lookup', 'durability', 'ip-import', 'export', 'fuzz', 'lists', 'client', 'read-workers', 'json-body', 'lost-update', 'device-flood', 'floods', 'fleet', 'capacity-doc', 'lighthouse'];
if (!NAMES.includes(which)) throw new Error(`npm run bench: no bench named "${which}" (known: ${NAMES.join(', ')})`);
if (which === 'all') await issue34Report();
if (which === 'scale') await scaleReport();
if (which === 'bundle') await bundleSizes();
if (which === 'api') await apiThroughput();
if (which === 'lookup') await lookupThroughput();
if (which === 'durability') await durability();
if (which === 'ip-import') await ipImport(process.argv.slice(3));
if (which === 'export') await exportMemory();
if (which === 'fuzz') await fuzz(process.argv[3] ? Number(process.argv[3]) : undefined, process.argv[4] ? Number(process.argv[4]) : undefined);
if (which === 'lists') await listsAtScale();
if (which === 'client') await clientFigures();
if (which === 'read-workers') await readWorkers();
if (which === 'json-body') await jsonBody();
if (which === 'lost-update') await lostUpdate();
if (which === 'device-flood') await deviceFlood();
if (which === 'floods') await floods();
if (which === 'fleet') await fleet();
if (which === 'capacity-doc') capacityDoc();
// Loaded only when asked: Lighthouse is a large module.
if (which === 'lighthouse') await (await import('./lighthouse.ts')).lighthouseReport();
