// Shared by the e2e files: a real server on a free port with a fresh SQLite directory, and a real Chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
const ROOT = resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  /** The server's DATA_DIR (uploads, build folders, the SQLite file). */
  dataDir: string;
  /** GET/POST one API call as `token`; resolves to the envelope. */
  api(method: string, path: string, params?: Record<string, unknown>, token?: string): Promise<{ result: boolean; data?: any; message?: string }>;
  login(email?: string, password?: string): Promise<string>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${log()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

let bundled: Promise<string> | undefined;

/** Whether a process with this pid is running. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * server/main.ts and the server's modules as one file (Vite's server-side build, the packages left as imports of
 * node_modules), built once per test process into .tmp/server-<pid>/ (so its `../../package.json` is the
 * project's); the folders of processes that have ended go first. A server process then starts without tsx compiling
 * each module as it loads: 4.0 -> 2.6 s to a healthy /healthz on this 2-core machine, for each one a test starts.
 */
function serverEntry(): Promise<string> {
  bundled ??= (async () => {
    const tmp = join(ROOT, '.tmp');
    mkdirSync(tmp, { recursive: true });
    for (const name of readdirSync(tmp)) {
      const pid = /^server-(\d+)$/.exec(name)?.[1];
      if (pid && !running(Number(pid))) rmSync(join(tmp, name), { recursive: true, force: true });
    }
    const outDir = join(tmp, `server-${process.pid}`);
    await build({
      configFile: false,
      root: ROOT,
      logLevel: 'warn',
      build: { ssr: 'server/main.ts', outDir, emptyOutDir: true, minify: false, rolldownOptions: { output: { entryFileNames: 'main.mjs' } } },
    });
    return join(outDir, 'main.mjs');
  })();
  return bundled;
}

/**
 * The server (server/main.ts, bundled: serverEntry) on a free port of 127.0.0.1, `env` over the defaults (SQLite),
 * once /healthz answers. One process, no npx wrapper before it (one more Node start for each of a run's servers),
 * so its pid is the server's; `detached` makes it the leader of a process group of its own.
 */
export async function spawnServer(env: Record<string, string>, { detached = false } = {}): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [await serverEntry()], {
    cwd: ROOT,
    detached,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await waitForHealth(`http://127.0.0.1:${port}`, child, () => output);
  return { child, port, output: () => output };
}

/** Starts the server (spawnServer) in a process group of its own on a fresh DATA_DIR; `extraEnv` adds e.g. PANEL_HOSTS. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'panel-e2e-'));
  const { child, port } = await spawnServer({ DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...extraEnv }, { detached: true });
  const url = `http://localhost:${port}`;

  const api: RunningServer['api'] = async (method, path, params = {}, token) => {
    const headers: Record<string, string> = token ? { Authorization: token } : {};
    let target = `${url}${path}`;
    let body: string | undefined;
    if (method === 'GET' || method === 'DELETE') {
      const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
      if ([...q].length) target += `?${q}`;
    } else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(params);
    }
    const res = await fetch(target, { method, headers, body });
    return res.json() as Promise<{ result: boolean; data?: any; message?: string }>;
  };

  return {
    url,
    dataDir,
    api,
    async login(email = ADMIN.email, password = ADMIN.password) {
      const answer = await api('POST', '/v1/user/login', { email, password });
      if (!answer.result) throw new Error(`login failed: ${answer.message}`);
      return answer.data.token as string;
    },
    async stop() {
      // A child ended by the signal has a signalCode and no exitCode: stopping twice must not wait forever.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
      }
      // The server is the group's leader and has exited; stopped means the whole process group is gone (anything
      // it started, within its stop grace).
      for (let i = 0; i < 200; i++) {
        try {
          process.kill(-child.pid!, 0);
        } catch {
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Logs in through the login screen and waits for the shell. */
export async function loginThroughScreen(page: Page, server: RunningServer, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
}

/**
 * Waits until the page has started and ended no request for `quietMs`. Playwright's `networkidle` is a state of
 * the page's last navigation: once reached it is never waited for again, and in the panel (one navigation, then
 * the app routes itself) a wait for it after a click returns at once.
 * @example await networkQuiet(page); expect(listCalls).toHaveLength(1)
 */
export async function networkQuiet(page: Page, quietMs = 500, timeoutMs = 15_000): Promise<void> {
  let last = Date.now();
  const seen = () => void (last = Date.now());
  page.on('request', seen).on('requestfinished', seen).on('requestfailed', seen);
  try {
    for (const end = Date.now() + timeoutMs; Date.now() - last < quietMs; ) {
      if (Date.now() > end) throw new Error(`the page's network was never quiet for ${quietMs} ms within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    page.off('request', seen).off('requestfinished', seen).off('requestfailed', seen);
  }
}

/**
 * Opens a select (or combobox) with a click and clicks one of its options. When no list of options shows within 5 s
 * the click is made again: on a loaded machine a click can land while the layout moves under it (a dialog
 * re-centring as its content grows), and it misses the field as a person's click would.
 * @example await chooseOption(page, dialog.getByLabel('Vendor'), 'lg')
 */
export async function chooseOption(page: Page, field: Locator, name: string | RegExp): Promise<void> {
  const option = page.getByRole('option', { name }).first();
  for (let attempt = 1; ; attempt++) {
    if (!(await page.getByRole('listbox').first().isVisible())) await field.click();
    try {
      await option.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
  await option.click();
}
