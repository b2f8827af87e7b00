// The IP import (issue 14), server and panel, each measured on the real server in a process of its own:
// - server: one addArray call of N addresses (default 1,000,000, the most the call takes) on SQLite and PostgreSQL,
//   timed from the request to the answer, while this process asks /healthz one request after another (5 ms apart): the slowest
//   /healthz answer is how long any other request (the device lookup too) waited behind the import; and the CPU time
//   the server's main thread (its event loop) spent meanwhile, which the machine's other load does not inflate;
// - panel (Chromium, the built panel of that tree): a file of 100,000 lines (450,000 addresses: half the lines are
//   a.b.c.* wildcards) chosen in the import modal, the time from the file input's change to the preview on screen,
//   and the longest main-thread task (Long Tasks API) from choosing the file to the preview, and from OK to the
//   answer (building and sending the 20 MB body); the tasks of the list's reload after the answer are shown apart.
// `--before <folder>` measures a second tree the same way in the same run (a checkout of an older commit with its
// node_modules and a built dist/), so the table is before -> after on one machine at one time.
//   npm run bench ip-import [--lines N] [--file-lines N] [--before <folder>] [--dialect sqlite|postgres] [--no-panel] [--no-server]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DIALECTS, freshPostgresDatabase, type Dialect } from '../tests/server/harness.ts';
import { freePort, launchBrowser } from '../tests/e2e/harness.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };

interface Server {
  url: string;
  /** CPU seconds the server's main thread (the event loop) has used so far (Linux). */
  mainThreadCpu(): number;
  token: string;
  stop(): Promise<void>;
}

/** The server of the tree at `root` on a free port, a fresh DATA_DIR and (for PostgreSQL) a fresh database; `dist`: the panel it serves. */
async function startServer(root: string, dialect: Dialect, dist?: string): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ip-import-'));
  const database = dialect === 'postgres' ? await freshPostgresDatabase() : undefined;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DIST_DIR: dist ?? join(dataDir, 'no-dist'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server of ${root} exited:\n${output}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = await fetch(`${url}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  return {
    url,
    token,
    mainThreadCpu() {
      // utime and stime of the thread whose id is the process's: fields 14 and 15, in clock ticks (100 a second).
      const fields = readFileSync(`/proc/${child.pid}/task/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `n` distinct addresses as the panel sends them: {ip, vendor}, a third with /32 and the rest bare. */
function addresses(n: number): { ip: string; vendor: string }[] {
  const ips: { ip: string; vendor: string }[] = [];
  for (let i = 0; i < n; i++) ips.push({ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}${i % 3 ? '' : '/32'}`, vendor: i % 2 ? 'lg' : 'samsung' });
  return ips;
}

export interface ServerFigures {
  answer: string;
  seconds: number;
  /** The slowest /healthz answer while the import ran, and the median one. */
  worstHealthMs: number;
  medianHealthMs: number;
  /** The slowest /healthz answer in 3 s without an import just before: what this busy machine alone costs. */
  idleWorstMs: number;
  /** CPU seconds of the server's main thread from the request to the answer (the /healthz answers' share included). */
  mainCpuSeconds: number;
}

/** Asks /healthz one request after another, 5 ms apart, until `stop()` says so; answers every wait. */
async function askHealth(url: string, stop: () => boolean): Promise<number[]> {
  const waits: number[] = [];
  while (!stop()) {
    const asked = performance.now();
    await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
    waits.push(performance.now() - asked);
    // A short pause: back-to-back requests only cost the server's main thread CPU time (a stall still shows, as a slow answer).
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return waits.sort((a, b) => a - b);
}

async function serverImport(root: string, dialect: Dialect, body: Blob): Promise<ServerFigures> {
  const server = await startServer(root, dialect);
  try {
    const idleUntil = performance.now() + 3000;
    const idle = await askHealth(server.url, () => performance.now() > idleUntil);
    let done = false;
    const cpuBefore = server.mainThreadCpu();
    const started = performance.now();
    const importing = fetch(`${server.url}/v1/admin/testersIP/addArray`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: server.token },
      body,
    }).then(async (response) => {
      const text = await response.text();
      done = true;
      return `${response.status} ${text.slice(0, 40)}`;
    });
    const waits = await askHealth(server.url, () => done);
    const answer = await importing;
    const seconds = (performance.now() - started) / 1000;
    const mainCpuSeconds = server.mainThreadCpu() - cpuBefore;
    return { answer, seconds, mainCpuSeconds, worstHealthMs: waits.at(-1) ?? 0, medianHealthMs: waits[Math.floor(waits.length / 2)] ?? 0, idleWorstMs: idle.at(-1) ?? 0 };
  } finally {
    await server.stop();
  }
}

/** A file of `lines` lines: every other one a.b.c.* (8 blocks), the others one address: 4.5 addresses a line. */
function importFile(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(i % 2 ? `12.${(i >> 16) & 255}.${(i >> 8) & 255}.*` : `13.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  return out.join('\n');
}

export interface PanelFigures {
  addresses: string;
  previewMs: number;
  longestToPreviewMs: number;
  longestSendMs: number;
  /** From the answer to the list shown again (the list's reload and render, not the import's own work). */
  longestAfterMs: number;
  sendSeconds: number;
}

// In the page: every long task (over 50 ms) with its start, and the moments the steps happen.
const OBSERVE = `
window.__longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
  .observe({ type: 'longtask', buffered: true });
document.addEventListener('change', (e) => { if (e.target instanceof HTMLInputElement && e.target.type === 'file') window.__chosenAt = performance.now(); }, true);
`;

async function panelImport(root: string, dist: string, fileLines: number): Promise<PanelFigures> {
  const server = await startServer(root, 'sqlite', dist);
  const browser = await launchBrowser();
  const folder = mkdtempSync(join(tmpdir(), 'bench-ip-file-'));
  const file = join(folder, 'big.txt');
  writeFileSync(file, importFile(fileLines));
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(OBSERVE);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.goto(`${server.url}/testerIP`);
    await page.getByRole('button', { name: 'Import from file' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Vendor').click();
    await page.getByRole('option', { name: 'lg' }).click();
    await page.waitForTimeout(300);
    // The moment the preview names the file, seen by a MutationObserver in the page.
    await page.evaluate(`new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="ip-import-preview"]')?.textContent?.includes('from big.txt')) {
        window.__previewAt = performance.now();
        observer.disconnect();
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true })`);
    // A file on disk, as a user picks one (a buffer would be decoded by script in the page, a long task of its own).
    await dialog.getByLabel('IP list file').setInputFiles(file);
    const heading = dialog.getByText(/addresses to add from big\.txt/);
    await heading.waitFor({ timeout: 60_000 });
    const addressCount = (await heading.textContent())?.split(' ')[0] ?? '?';
    await page.waitForTimeout(300); // long tasks right after the preview belong to this step too
    const okAt = (await page.evaluate('performance.now()')) as number;
    const started = performance.now();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 120_000 });
    const sendSeconds = (performance.now() - started) / 1000;
    await page.waitForTimeout(500); // the list's reload after the import
    // A string, so that no helper of the TypeScript transform is referenced inside the page.
    const figures = (await page.evaluate(`(() => {
      const longest = (from, to) => Math.max(0, ...window.__longTasks.filter(([at, ms]) => at + ms > from && at < to).map(([, ms]) => ms));
      const answerAt = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/testersIP/addArray')).responseEnd;
      return {
        previewMs: window.__previewAt - window.__chosenAt,
        longestToPreviewMs: longest(window.__chosenAt, ${okAt}),
        longestSendMs: longest(${okAt}, answerAt),
        longestAfterMs: longest(answerAt, performance.now()),
      };
    })()`)) as Pick<PanelFigures, 'previewMs' | 'longestToPreviewMs' | 'longestSendMs' | 'longestAfterMs'>;
    return { addresses: addressCount, sendSeconds, ...figures };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

export interface IpImportFigures {
  /** The import of a file in the panel, per tree (`after` is this one). */
  panel: { tree: string; lines: number; figures: PanelFigures }[];
  /** addArray on the server, per tree and dialect. */
  server: { tree: string; dialect: Dialect; lines: number; figures: ServerFigures }[];
}

/** `dist`: the panel built from this tree (else its dist/, as `npx vite build` writes it). */
export async function ipImport(argv: string[] = [], dist = join(ROOT, 'dist')): Promise<IpImportFigures> {
  const { values } = parseArgs({
    args: argv,
    options: {
      lines: { type: 'string', default: '1000000' },
      'file-lines': { type: 'string', default: '100000' },
      before: { type: 'string' },
      dialect: { type: 'string' },
      'no-panel': { type: 'boolean', default: false },
      'no-server': { type: 'boolean', default: false },
    },
  });
  const trees = [...(values.before ? [{ name: 'before', root: resolve(values.before), dist: join(resolve(values.before), 'dist') }] : []), { name: 'after', root: ROOT, dist }];
  const out: IpImportFigures = { panel: [], server: [] };
  const dialects = values.dialect ? [values.dialect as Dialect] : DIALECTS;
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  if (!values['no-panel']) {
    const lines = Number(values['file-lines']);
    console.log(`\nIP import in the panel (Chromium): a file of ${lines.toLocaleString('en')} lines; long tasks are the page's main thread`);
    console.log('| tree | addresses | file chosen -> preview | longest task, choose -> preview | longest task, OK -> answer | OK -> modal closed | longest task, answer -> list reloaded |');
    console.log('|---|---|---|---|---|---|---|');
    for (const tree of trees) {
      const f = await panelImport(tree.root, tree.dist, lines);
      out.panel.push({ tree: tree.name, lines, figures: f });
      console.log(
        `| ${tree.name} | ${f.addresses} | ${ms(f.previewMs)} | ${ms(f.longestToPreviewMs)} | ${ms(f.longestSendMs)} | ${f.sendSeconds.toFixed(2)} s | ${ms(f.longestAfterMs)} |`,
      );
    }
  }
  if (!values['no-server']) {
    const lines = Number(values.lines);
    const body = new Blob([JSON.stringify({ ips: addresses(lines) })]);
    console.log(`\nIP import on the server: addArray of ${lines.toLocaleString('en')} addresses (${(body.size / 2 ** 20).toFixed(1)} MiB of JSON), /healthz asked in a loop meanwhile`);
    console.log('| tree | dialect | answer | import time | slowest /healthz (the longest stall) | median /healthz | slowest /healthz, no import | main thread CPU during the import |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const dialect of dialects) {
      for (const tree of trees) {
        const f = await serverImport(tree.root, dialect, body);
        out.server.push({ tree: tree.name, dialect, lines, figures: f });
        console.log(`| ${tree.name} | ${dialect} | ${f.answer} | ${f.seconds.toFixed(2)} s | ${ms(f.worstHealthMs)} | ${ms(f.medianHealthMs)} | ${ms(f.idleWorstMs)} | ${f.mainCpuSeconds.toFixed(2)} s |`);
      }
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) await ipImport(process.argv.slice(2));
