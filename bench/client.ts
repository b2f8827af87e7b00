// The panel against react-admin in Chromium (issue 14: item 4's client goals, measured as item 5 asks), in one run on one machine: both apps are built
// here (the panel with `vite build`, bench/react-admin/ with its own install and the same Vite), one server on a
// temporary SQLite database holds their data, and each app is served by its own front server (bench/front.ts:
// the same brotli, the same proxy hop to the API). Every figure is the median of --runs cold runs per app, the
// apps taking turns; each run opens a fresh browser context (empty cache and storage).
//
// What is measured, by the same in-page method for both apps: a screen counts as painted at the end of the
// first animation frame whose DOM shows it (a requestAnimationFrame loop checks the DOM; a message posted from
// that frame runs once the frame is painted). "Shows" means visible elements holding the record's values:
//   - JS to the login screen / to a list: compressed bytes (encodedBodySize) of the .js files whose download
//     ended before that screen painted: cold, from opening the App Info list to its login screen, then logging
//     in as customer care, whose home is that list in both apps;
//   - login click to first rows: the click event's time to the first row of that list painted; once with the form
//     filled and clicked as soon as the login screen shows (as a script would), once as a person would, clicking
//     LOGIN_PAUSE_MS after the login screen showed (what the panel does with that idle time counts: rehearsal.tsx);
//   - on the Platforms list (admin, 20 rows, once the list is idle): a details row expanded (its details show
//     the record) and a row's edit form filled (inputs holding the row's name and max version), from the click;
//   - 500 rows: with 500 rows a page, "next page" from the list response's last byte (or the click, if later)
//     to the page's first row painted; and the same from the click, the call included (what the user waits).
//   npm run bench -- client [--runs 5]
// BENCH_CLIENT_BASELINE=<dir> also measures an older panel build in that dir (taking turns with the others) and
// prints its table too: a change's before and after in one run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser, Locator, Page } from 'playwright-core';
import { build } from 'vite';
import { ADMIN, launchBrowser, networkQuiet, startServer, type RunningServer } from '../tests/e2e/harness.ts';
import { startFront, type Front } from './front.ts';
import { option } from './options.ts';
import { CLIENT_GOALS, type ClientFigure } from './goals.ts';

const ROOT = resolve(import.meta.dirname, '..');
const RA_DIR = join(ROOT, 'bench', 'react-admin');
const FLOOR_DIR = join(ROOT, 'bench', 'grid-floor');
const PLATFORMS = 1200;
const APP_INFOS = 600;
const CARE = { email: 'care@example.com', password: 'care-password-1' };
/** The window of every cold run, the grid alone's included. */
const VIEWPORT = { width: 1400, height: 900 };
/** How long a person takes to fill the login form, from the screen shown to the click (2 s: a quick typist, or a password manager and a look). */
const LOGIN_PAUSE_MS = 2000;

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${result.stdout}\n${result.stderr}`);
}

/** Builds the panel into `dir` (the scale report builds it once for this bench and the IP import's). */
export function buildPanel(dir: string): string {
  const t = Date.now();
  run('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir'], ROOT);
  console.log(`client: panel built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return dir;
}

/** Builds the react-admin app into `dir` (nothing is written into the repository but the app's node_modules). */
function buildReactAdmin(dir: string): string {
  const installed = join(RA_DIR, 'node_modules', '.package-lock.json');
  let t = Date.now();
  if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(join(RA_DIR, 'package-lock.json')).mtimeMs) {
    run('npm', ['ci', '--no-audit', '--no-fund'], RA_DIR);
    console.log(`client: bench/react-admin installed in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  t = Date.now();
  run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(RA_DIR, 'tsconfig.json')], RA_DIR);
  run(process.execPath, [join(RA_DIR, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', dir], RA_DIR);
  console.log(`client: react-admin app checked and built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return dir;
}

/** Builds bench/grid-floor (the panel's grid alone) into `dir`, with the panel's own Vite and React plugin. */
async function buildGridFloor(dir: string): Promise<string> {
  const t = Date.now();
  await build({ root: FLOOR_DIR, configFile: false, plugins: [react()], logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  console.log(`client: the grid alone (bench/grid-floor) built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return dir;
}

/** Runs `count` calls, `width` at a time. */
async function inBatches(count: number, width: number, one: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += width) {
    await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, k) => one(start + k)));
  }
}

interface Row {
  id: number;
  [field: string]: any;
}

/** The records the screens must show, read back from the API in the order the screens ask for. */
interface Expected {
  appinfoTop: Row;
  platformFirst: Row;
  expandRow: Row;
  editRow: Row;
  page2First: Row;
}

async function seed(server: RunningServer): Promise<Expected> {
  const token = await server.login();
  const must = async (method: string, path: string, params: Record<string, unknown>) => {
    const answer = await server.api(method, path, params, token);
    if (!answer.result) throw new Error(`${path}: ${answer.message}`);
    return answer.data;
  };
  await must('GET', '/v1/admin/user/add', { ...CARE, role: 'customercare' });
  await inBatches(PLATFORMS, 40, (i) =>
    must('GET', '/v1/admin/platform/add', { name: `platform-${String(i + 1).padStart(5, '0')}`, maxVersion: `${(i % 99) + 1}.${i % 7}.${i % 13}` }),
  );
  const platforms = ['tizen', 'webos', 'androidtv', 'vidaa'];
  await inBatches(APP_INFOS, 40, (i) =>
    server.api('POST', '/v1/appinfo/report', {
      appInstallId: `install-${i}`,
      email: `viewer${i}@example.com`,
      login: `viewer-${i}`,
      version: `1.${i % 20}.${i % 10}`,
      whitelabel: ['aurora', 'nordtv', 'kinomax'][i % 3],
      platform: platforms[i % 4],
      userId: `u${i}`,
    }),
  );
  const list = (path: string, params: Record<string, unknown>) => must('GET', path, params).then((d) => d.rows as Row[]);
  const [appinfoTop] = await list('/v1/admin/appinfo/get', { page: 1, pageSize: 1, sortBy: 'id', sortOrder: 'desc' });
  const page1 = await list('/v1/admin/platform/get', { page: 1, pageSize: 20, sortBy: 'id', sortOrder: 'asc' });
  const [page2First] = await list('/v1/admin/platform/get', { page: 2, pageSize: 500, sortBy: 'id', sortOrder: 'asc' });
  if (!appinfoTop || page1.length < 20 || !page2First) throw new Error('the seeded lists are short');
  return { appinfoTop, platformFirst: page1[0], expandRow: page1[4], editRow: page1[2], page2First };
}

/** How the bench drives one app: its URLs and the controls it clicks (found by role and name, as a user would). */
interface App {
  name: string;
  front: Front;
  appinfo: string;
  platforms: string;
  platforms500: string;
  userLabel: string;
  loginButton: string;
  row: (page: Page, text: string) => Locator;
  expand: (row: Locator) => Locator;
  edit: (row: Locator) => Locator;
}

// ---- in the page ----

/** What must be on screen: a cell showing exactly `text`; inputs holding every value; a details row holding `text`; a password input. */
type Target = { kind: 'cell'; text: string } | { kind: 'inputs'; values: string[] } | { kind: 'details'; text: string } | { kind: 'login' };

interface Painted {
  /** performance.now() of the frame that first showed the target, before its paint... */
  frame: number;
  /** ...and after it. */
  painted: number;
}

interface BenchGlobal {
  lastClick: number;
  pending?: Promise<Painted>;
  login?: Promise<Painted>;
  waitFor(target: Target): Promise<Painted>;
}

/** Installed in every document before the app's own scripts. */
function instrument(armLogin: boolean) {
  const visible = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const shows = (target: Target): boolean => {
    if (target.kind === 'login') return [...document.querySelectorAll('input[type="password"]')].some(visible);
    if (target.kind === 'cell') return [...document.querySelectorAll('td, [role="gridcell"]')].some((el) => el.textContent?.trim() === target.text && visible(el));
    if (target.kind === 'details') return [...document.querySelectorAll('[data-testid="row-details"]')].some((el) => el.textContent?.includes(target.text) && visible(el));
    const values = [...document.querySelectorAll('input, textarea')].filter(visible).map((el) => (el as HTMLInputElement).value);
    return target.values.every((v) => values.includes(v));
  };
  const bench: BenchGlobal = {
    lastClick: 0,
    waitFor: (target) =>
      new Promise((done) => {
        const check = () => {
          if (!shows(target)) return requestAnimationFrame(check);
          // This frame's rendering includes the target; a message posted now runs after that rendering.
          const frame = performance.now();
          const channel = new MessageChannel();
          channel.port1.onmessage = () => done({ frame, painted: performance.now() });
          channel.port2.postMessage(null);
        };
        requestAnimationFrame(check);
      }),
  };
  (window as unknown as { __bench: BenchGlobal }).__bench = bench;
  performance.setResourceTimingBufferSize(5000);
  addEventListener('click', (e) => (bench.lastClick = e.timeStamp), true);
  if (armLogin) bench.login = bench.waitFor({ kind: 'login' });
}

/** tsx names functions through an `__name` helper that only exists in Node: the page gets a do-nothing one. */
const instrumentScript = (armLogin: boolean) => `globalThis.__name ??= (f) => f; (${instrument.toString()})(${armLogin});`;

type BenchWindow = Window & { __bench: BenchGlobal };

/** Compressed bytes of the .js files whose download ended by `until` (page time). */
function jsBytes(page: Page, until: number): Promise<number> {
  return page.evaluate(
    (t) =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => new URL(e.name).pathname.endsWith('.js') && e.responseEnd <= t)
        .reduce((sum, e) => sum + e.encodedBodySize, 0),
    until,
  );
}

/** Arms a wait for `target`, runs `act` (a click), and answers the paint and the click's time. */
async function timed(page: Page, target: Target, act: () => Promise<void>): Promise<{ painted: number; click: number }> {
  await page.evaluate((t) => {
    const bench = (window as unknown as BenchWindow).__bench;
    bench.lastClick = 0;
    bench.pending = bench.waitFor(t);
  }, target);
  await act();
  const painted = await page.evaluate(() => (window as unknown as BenchWindow).__bench.pending!);
  const click = await page.evaluate(() => (window as unknown as BenchWindow).__bench.lastClick);
  if (!click || painted.frame < click) throw new Error(`${JSON.stringify(target)} was on screen before the click`);
  return { painted: painted.painted, click };
}

/** Waits until the page fetched nothing for a second (the panel preloads code when a list is idle), 8 s at most. */
const settle = (page: Page): Promise<void> => networkQuiet(page, 1000, 8000).catch(() => undefined);

async function login(page: Page, app: App, who: { email: string; password: string }): Promise<void> {
  await page.getByLabel(app.userLabel).fill(who.email);
  await page.locator('input[type="password"]').fill(who.password);
}

/** Bytes for the JS figures, ms for the others. */
export type Figures = Record<ClientFigure, number>;

/** One cold run of `app`; on a failure, the screen it was on is saved beside the error. */
async function measure(browser: Browser, app: App, expected: Expected): Promise<Figures> {
  let page: Page | undefined;
  try {
    return await steps(browser, app, expected, (p) => (page = p));
  } catch (e) {
    const shot = join(tmpdir(), `bench-client-${app.name}.png`);
    await page?.screenshot({ path: shot }).catch(() => undefined);
    throw new Error(`${app.name}: ${e instanceof Error ? e.message : String(e)}\n(screen: ${shot})`, { cause: e });
  }
}

async function steps(browser: Browser, app: App, expected: Expected, current: (page: Page) => void): Promise<Figures> {
  const out = {} as Figures;

  // Cold: the App Info list, its login screen, customer care's login, the list's first rows.
  let context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ content: instrumentScript(true) });
  let page = await context.newPage();
  current(page);
  await page.goto(app.front.url + app.appinfo, { waitUntil: 'commit' });
  const loginPainted = await page.evaluate(() => (window as unknown as BenchWindow).__bench.login!);
  out.jsLogin = await jsBytes(page, loginPainted.painted);
  await login(page, app, CARE);
  const first = await timed(page, { kind: 'cell', text: expected.appinfoTop.email }, () => page.getByRole('button', { name: app.loginButton, exact: true }).click());
  out.loginToRows = first.painted - first.click;
  out.jsList = await jsBytes(page, first.painted);
  await context.close();

  // Cold again, the login clicked as a person would: a moment after the screen showed.
  context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ content: instrumentScript(true) });
  page = await context.newPage();
  current(page);
  await page.goto(app.front.url + app.appinfo, { waitUntil: 'commit' });
  await page.evaluate(() => (window as unknown as BenchWindow).__bench.login!);
  await page.waitForTimeout(LOGIN_PAUSE_MS);
  await login(page, app, CARE);
  const paused = await timed(page, { kind: 'cell', text: expected.appinfoTop.email }, () => page.getByRole('button', { name: app.loginButton, exact: true }).click());
  out.loginToRowsPaused = paused.painted - paused.click;
  await context.close();

  // The Platforms list as admin, idle: a details row, an edit form, then 500 rows a page.
  context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ content: instrumentScript(false) });
  page = await context.newPage();
  current(page);
  await page.goto(app.front.url + app.platforms);
  await login(page, app, ADMIN);
  await page.getByRole('button', { name: app.loginButton, exact: true }).click();
  await page.locator('input[type="password"]').waitFor({ state: 'detached' });
  await page.goto(app.front.url + app.platforms);
  await app.row(page, expected.platformFirst.name).waitFor();
  await settle(page);

  const expandRow = app.row(page, expected.expandRow.name);
  const profileExpand = await profiler(page, app, 'expand');
  const expanded = await timed(page, { kind: 'details', text: expected.expandRow.name }, () => app.expand(expandRow).click());
  await profileExpand?.();
  out.expand = expanded.painted - expanded.click;
  await settle(page);

  const editRow = app.row(page, expected.editRow.name);
  const edited = await timed(page, { kind: 'inputs', values: [expected.editRow.name, expected.editRow.maxVersion] }, () => app.edit(editRow).click());
  out.edit = edited.painted - edited.click;

  // A new document: react-admin's hash route with other list parameters, reached as a same-document navigation from
  // its edit screen, kept the list it had (the bench then waited for 500 rows that never came).
  await page.goto('about:blank');
  await page.goto(app.front.url + app.platforms500);
  await app.row(page, expected.platformFirst.name).waitFor();
  await settle(page);
  const profile = await profiler(page, app, 'rows500');
  const next = await timed(page, { kind: 'cell', text: expected.page2First.name }, () => page.getByRole('button', { name: 'Go to next page' }).click());
  await profile?.();
  const responseEnd = await page.evaluate(() =>
    Math.max(
      0,
      ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => {
          const url = new URL(e.name);
          return url.pathname === '/v1/admin/platform/get' && url.searchParams.get('page') === '2' && url.searchParams.get('pageSize') === '500';
        })
        .map((e) => e.responseEnd),
    ),
  );
  if (!responseEnd) throw new Error(`${app.name}: no request for page 2 of 500 rows`);
  out.rows500 = next.painted - Math.max(responseEnd, next.click);
  out.rows500Click = next.painted - next.click;
  await context.close();
  return out;
}

/**
 * BENCH_CLIENT_PROFILE=<dir>: each app's "next page of 500 rows" and details expand, from the click to the paint, as a V8 CPU profile
 * (<dir>/<app>-<what>-<n>.cpuprofile, opened by Chromium's DevTools; with a build made with --sourcemap its frames map back
 * to the sources): what runs between the response and the paint.
 */
async function profiler(page: Page, app: App, what: string): Promise<(() => Promise<void>) | undefined> {
  const dir = process.env.BENCH_CLIENT_PROFILE;
  if (!dir) return undefined;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    let n = 1;
    while (existsSync(join(dir, `${app.name}-${what}-${n}.cpuprofile`))) n++;
    writeFileSync(join(dir, `${app.name}-${what}-${n}.cpuprofile`), JSON.stringify(profile));
    await cdp.detach();
  };
}

/** The grid alone's figures: what the page downloads (brotli, as for the apps), and 500 rows handed over -> painted. */
export interface GridFloor {
  js: number;
  rows500: number;
}

/**
 * One cold run of the grid alone: the JS it took to show its rows, and from the moment its next 500 rows are handed
 * to the grid (where the panel's figure starts at the response's last byte) to the frame that shows the first of them.
 */
async function gridFloorRun(browser: Browser, front: Front): Promise<GridFloor> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript({ content: instrumentScript(false) });
    const page = await context.newPage();
    await page.goto(front.url + '/');
    await page.locator('.MuiDataGrid-row', { hasText: 'platform-00001' }).waitFor();
    const js = await jsBytes(page, await page.evaluate(() => performance.now()));
    await page.waitForTimeout(1000);
    const next = await timed(page, { kind: 'cell', text: 'platform-00501' }, () => page.getByRole('button', { name: 'Go to next page' }).click());
    const rowsSetAt = await page.evaluate(() => window.rowsSetAt);
    if (rowsSetAt === undefined) throw new Error('the grid alone: no rows were set');
    return { js, rows500: next.painted - rowsSetAt };
  } finally {
    await context.close();
  }
}

// ---- the table ----

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function table(ours: Figures[], theirs: Figures[]): string {
  const header = ['figure (median)', 'ours', 'react-admin', 'ours/RA', 'goal', 'met', 'ours: runs min-max', 'RA: runs min-max'];
  const lines = CLIENT_GOALS.map((g) => {
    const show = (v: number) => (g.unit === 'kB' ? `${(v / 1024).toFixed(1)} kB` : `${Math.round(v)} ms`);
    const spread = (runs: Figures[]) => {
      const values = runs.map((f) => f[g.figure]);
      return `${show(Math.min(...values))} - ${show(Math.max(...values))}`;
    };
    const a = median(ours.map((f) => f[g.figure]));
    const b = median(theirs.map((f) => f[g.figure]));
    const ratio = a / b;
    const inUnit = g.unit === 'kB' ? a / 1024 : a;
    const met = (g.ratio === undefined || ratio <= g.ratio) && (g.max === undefined || inUnit <= g.max);
    const goal = [g.ratio !== undefined ? `<= ${g.ratio}x` : '', g.max !== undefined ? `<= ${g.max} ${g.unit}` : ''].filter(Boolean).join(', ');
    return [g.label, show(a), show(b), `${ratio.toFixed(2)}x`, goal || '-', goal ? (met ? 'met' : 'not met') : 'no goal', spread(ours), spread(theirs)];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...lines.map(line)].join('\n');
}

/** The medians of the runs, ours and react-admin's (bytes for JS, ms for the rest). */
export interface ClientFigures {
  ours: Figures;
  reactAdmin: Figures;
  /** The grid alone (bench/grid-floor), medians of the same runs. */
  gridFloor: GridFloor;
}

const medians = (runs: Figures[]): Figures =>
  Object.fromEntries(CLIENT_GOALS.map((g) => [g.figure, median(runs.map((f) => f[g.figure]))])) as unknown as Figures;

/** The grid alone's figures beside the goals of the panel's figures they are the floors of. */
function gridFloorLine({ reactAdmin, gridFloor }: ClientFigures, runs: GridFloor[]): string {
  const goal = (figure: ClientFigure) => CLIENT_GOALS.find((g) => g.figure === figure)!;
  const ms = runs.map((f) => f.rows500);
  return (
    `the grid alone (bench/grid-floor: the same @mui/x-data-grid, the Platforms list's 5 columns as plain text, nothing else on the page): ` +
    `JS to its rows ${(gridFloor.js / 1024).toFixed(1)} kB (the goal for the panel's list: ${goal('jsList').ratio}x react-admin, ${((goal('jsList').ratio! * reactAdmin.jsList) / 1024).toFixed(1)} kB); ` +
    `500 rows handed to it -> painted ${Math.round(gridFloor.rows500)} ms median (runs ${Math.round(Math.min(...ms))}-${Math.round(Math.max(...ms))} ms; ` +
    `the goal for the panel's "response to paint": ${goal('rows500').max} ms)`
  );
}

/**
 * Issue 34, item 4: the panel at its grid's floor, each figure against its reference in the same run (medians):
 * JS to a list <= the grid alone + 30 kB; 500 rows response -> paint <= 1.3x the grid alone's rows handed -> paint;
 * details expand <= react-admin; login to first rows (typed at once) <= 0.8x react-admin.
 */
export function floorGoals(ours: Figures, reactAdmin: Figures, gridFloor: GridFloor): { label: string; ours: string; reference: string; measure: string; goal: string; met: boolean }[] {
  const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  const ms = (v: number) => `${Math.round(v)} ms`;
  const extra = (ours.jsList - gridFloor.js) / 1024;
  const ratio = (a: number, b: number) => a / b;
  return [
    { label: 'JS to a list', ours: kB(ours.jsList), reference: `grid alone ${kB(gridFloor.js)}`, measure: `${extra >= 0 ? '+' : ''}${extra.toFixed(1)} kB`, goal: '<= +30 kB', met: extra <= 30 },
    {
      label: '500 rows: response to paint',
      ours: ms(ours.rows500),
      reference: `grid alone ${ms(gridFloor.rows500)}`,
      measure: `${ratio(ours.rows500, gridFloor.rows500).toFixed(2)}x`,
      goal: '<= 1.3x',
      met: ratio(ours.rows500, gridFloor.rows500) <= 1.3,
    },
    { label: 'details row expand', ours: ms(ours.expand), reference: `react-admin ${ms(reactAdmin.expand)}`, measure: `${ratio(ours.expand, reactAdmin.expand).toFixed(2)}x`, goal: '<= 1x', met: ours.expand <= reactAdmin.expand },
    {
      label: 'login to first rows (typed at once)',
      ours: ms(ours.loginToRows),
      reference: `react-admin ${ms(reactAdmin.loginToRows)}`,
      measure: `${ratio(ours.loginToRows, reactAdmin.loginToRows).toFixed(2)}x`,
      goal: '<= 0.8x',
      met: ratio(ours.loginToRows, reactAdmin.loginToRows) <= 0.8,
    },
  ];
}

function floorTable(ours: Figures, reactAdmin: Figures, gridFloor: GridFloor): string {
  const rows = floorGoals(ours, reactAdmin, gridFloor).map((r) => [r.label, r.ours, r.reference, r.measure, r.goal, r.met ? 'met' : 'not met']);
  const header = ['issue 34, item 4 (medians)', 'ours', 'reference', 'ours against it', 'goal', 'met'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((l) => l[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** `panelDist`: a panel already built from this tree (else it is built here); `runs`: cold runs per app. */
export async function clientFigures(panelDist?: string, runs = Number(option('runs', '5'))): Promise<ClientFigures> {
  // BENCH_CLIENT_DIST=<dir> keeps both builds there and reuses them on the next run (when iterating on the bench).
  const keep = process.env.BENCH_CLIENT_DIST;
  const out = keep ?? mkdtempSync(join(tmpdir(), 'bench-client-'));
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const fronts: Front[] = [];
  try {
    const kept = (name: string) => (keep && existsSync(join(keep, name, 'index.html')) ? join(keep, name) : undefined);
    const dist = {
      panel: panelDist ?? kept('panel') ?? buildPanel(join(out, 'panel')),
      reactAdmin: kept('react-admin') ?? buildReactAdmin(join(out, 'react-admin')),
      gridFloor: kept('grid-floor') ?? (await buildGridFloor(join(out, 'grid-floor'))),
    };
    server = await startServer({ PUBLIC_RATE_LIMIT: '1000000' });
    let t = Date.now();
    const expected = await seed(server);
    console.log(`client: ${PLATFORMS} platforms and ${APP_INFOS} app infos added through the API in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const backend = server.url.replace('localhost', '127.0.0.1');
    const baselineDir = process.env.BENCH_CLIENT_BASELINE;
    const [oursFront, raFront, floorFront, baselineFront] = await Promise.all([
      startFront(dist.panel, backend),
      startFront(dist.reactAdmin, backend),
      startFront(dist.gridFloor, backend),
      ...(baselineDir ? [startFront(baselineDir, backend)] : []),
    ]);
    fronts.push(oursFront, raFront, floorFront, ...(baselineFront ? [baselineFront] : []));
    const ours: App = {
      name: 'ours',
      front: oursFront,
      appinfo: '/appinfo',
      platforms: '/platforms?sort=id',
      platforms500: '/platforms?sort=id&size=500',
      userLabel: 'E-mail',
      loginButton: 'Login',
      row: (page, text) => page.locator('.MuiDataGrid-row', { hasText: text }),
      expand: (row) => row.getByRole('button', { name: 'Details' }),
      edit: (row) => row.getByRole('button', { name: 'Edit' }),
    };
    const reactAdmin: App = {
      name: 'react-admin',
      front: raFront,
      appinfo: '/#/appinfo',
      platforms: '/#/platforms',
      platforms500: '/#/platforms?page=1&perPage=500&sort=id&order=ASC',
      userLabel: 'Username',
      loginButton: 'Sign in',
      row: (page, text) => page.locator('tbody tr', { hasText: text }),
      // react-admin hides its expand button from the accessibility tree (aria-hidden): found by its label.
      expand: (row) => row.locator('[aria-label="Expand"]'),
      edit: (row) => row.getByRole('link', { name: 'Edit' }),
    };
    const baseline: App | undefined = baselineFront && { ...ours, name: 'baseline', front: baselineFront };
    const apps = [ours, reactAdmin, ...(baseline ? [baseline] : [])];
    browser = await launchBrowser();
    const figures = new Map<App, Figures[]>(apps.map((app) => [app, []]));
    const floor: GridFloor[] = [];
    t = Date.now();
    for (let i = 0; i < runs; i++) {
      // The apps take turns (and the first one alternates), so a busy moment of the machine hits all.
      for (const app of i % 2 ? [...apps].reverse() : apps) figures.get(app)!.push(await measure(browser, app, expected));
      floor.push(await gridFloorRun(browser, floorFront));
    }
    console.log(`client: ${runs} cold runs per app in ${((Date.now() - t) / 1000).toFixed(1)} s (Chromium ${browser.version()}, react-admin ${raVersion()})`);
    console.log(table(figures.get(ours)!, figures.get(reactAdmin)!));
    const result: ClientFigures = {
      ours: medians(figures.get(ours)!),
      reactAdmin: medians(figures.get(reactAdmin)!),
      gridFloor: { js: median(floor.map((f) => f.js)), rows500: median(floor.map((f) => f.rows500)) },
    };
    console.log(gridFloorLine(result, floor));
    console.log(`load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
    console.log(floorTable(result.ours, result.reactAdmin, result.gridFloor));
    if (baseline) {
      console.log(`baseline (${baselineDir}) in the same run:\n${table(figures.get(baseline)!, figures.get(reactAdmin)!)}`);
      console.log(floorTable(medians(figures.get(baseline)!), result.reactAdmin, result.gridFloor));
    }
    return result;
  } finally {
    await browser?.close();
    for (const front of fronts) await front.close();
    await server?.stop();
    if (!keep) rmSync(out, { recursive: true, force: true });
  }
}

const raVersion = () => {
  const file = join(RA_DIR, 'node_modules', 'react-admin', 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : 'of a kept build';
};
