// What a browser downloads, compressed as the server sends it (brotli), to reach the login screen, a list screen
// and the add form. Measured in Chromium on the built panel (dist/), so it counts what a static reading of the
// manifest misses: the modulepreload links of index.html, the chunks a screen loads lazily on its way, and the
// dynamic imports fired during boot (the live socket's client). What loads after the screen is ready (idle
// preloads) is printed apart.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../server/app.ts';

const DIST = resolve('dist');
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };

/** The bytes the server sends for a built file: its .br beside it (precompress plugin), else the file itself. */
function sentSize(urlPath: string): number {
  const file = join(DIST, decodeURIComponent(urlPath));
  return existsSync(`${file}.br`) ? statSync(`${file}.br`).size : statSync(file).size;
}

/** Notes, in the page's own clock, when the first element matching a selector appears (the screen is ready). */
function watchFor(selector: string) {
  const w = window as unknown as { readyAt?: number };
  new MutationObserver((_, observer) => {
    if (w.readyAt === undefined && document.querySelector(selector)) {
      w.readyAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

/**
 * The scripts a page loaded (the Resource Timing entries, so modulepreloads and dynamic imports count): those
 * requested before `selector` first appeared, and those requested after (idle preloads), once no script has
 * been requested for `quiet` ms.
 */
async function scriptsOf(page: Page, selector: string, quiet = 1500) {
  await page.waitForSelector(selector);
  let seen = -1;
  for (let quietSince = Date.now(); Date.now() - quietSince < quiet; await new Promise((r) => setTimeout(r, 100))) {
    const count = await page.evaluate(() => performance.getEntriesByType('resource').length);
    if (count !== seen) [seen, quietSince] = [count, Date.now()];
  }
  const { entries, readyAt } = await page.evaluate(() => ({
    entries: performance.getEntriesByType('resource').map((e) => ({ name: e.name, start: e.startTime })),
    readyAt: (window as unknown as { readyAt: number }).readyAt,
  }));
  const scripts = entries.filter((e) => new URL(e.name).pathname.endsWith('.js'));
  const paths = (list: typeof scripts) => [...new Set(list.map((e) => new URL(e.name).pathname))];
  const before = paths(scripts.filter((e) => e.start <= readyAt));
  const after = paths(scripts.filter((e) => e.start > readyAt)).filter((p) => !before.includes(p));
  if (process.env.BENCH_FILES) console.log(selector, before.map((f) => `${f} ${(sentSize(f) / 1024).toFixed(1)}`), after);
  const kb = (files: string[]) => files.reduce((sum, f) => sum + sentSize(f), 0) / 1024;
  return { kb: kb(before), files: before.length, laterKb: kb(after), before: new Set(before), loaded: new Set([...before, ...after]) };
}

export async function bundleSizes(): Promise<void> {
  if (!existsSync(join(DIST, 'index.html'))) {
    console.log('bundle: run `npx vite build` first');
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'panel-bench-bundle-'));
  const app = await buildApp({ config: { dataDir, databaseUrl: undefined, adminEmail: ADMIN.email, adminPassword: ADMIN.password, distDir: DIST } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://localhost:${(app.server.address() as { port: number }).port}`;
    const res = await fetch(`${base}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const login = ((await res.json()) as { data: { token: string; user: unknown } }).data;
    for (const name of ['webOS', 'Tizen', 'Android TV']) {
      // The spec keeps this write a GET with its fields in the query string.
      const add = await fetch(`${base}/v1/admin/platform/add?${new URLSearchParams({ name, maxVersion: '1.2.3' })}`, { headers: { Authorization: login.token } });
      if (!add.ok) throw new Error(`platform add: HTTP ${add.status}`);
    }

    // The login screen, cold: ready when the password can be typed.
    const loginContext = await browser.newContext();
    await loginContext.addInitScript(watchFor, 'input[name="password"]');
    const loginPage = await loginContext.newPage();
    await loginPage.goto(`${base}/login`);
    const l = await scriptsOf(loginPage, 'input[name="password"]');

    // A list screen, cold, with a stored session: ready when its rows are drawn; then the add form on top.
    const context = await browser.newContext();
    await context.addInitScript(([token, user]) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', user);
    }, [login.token, JSON.stringify(login.user)] as const);
    await context.addInitScript(watchFor, '.MuiDataGrid-row');
    const listPage = await context.newPage();
    await listPage.goto(`${base}/platforms`);
    const list = await scriptsOf(listPage, '.MuiDataGrid-row');
    // The add form's code: what the list screen loaded after its rows (the idle preload) or the first opening fetches.
    await listPage.evaluate(() => ((window as unknown as { readyAt?: number }).readyAt = performance.now()));
    await listPage.getByRole('button', { name: 'Add' }).click();
    const form = await scriptsOf(listPage, '[role="dialog"] input');
    const formKb = [...form.loaded].filter((f) => !list.before.has(f)).reduce((sum, f) => sum + sentSize(f), 0) / 1024;
    const figure = (x: { kb: number; files: number }) => `${x.kb.toFixed(1)} kB (${x.files} files)`;
    console.log(`bundle (brotli, as Chromium loads it): login ${figure(l)}; a list screen ${figure(list)}; the add form's code on top ${formKb.toFixed(1)} kB`);
    console.log(`  loaded after the screen was ready (idle preloads): login +${l.laterKb.toFixed(1)} kB, list +${list.laterKb.toFixed(1)} kB`);
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
