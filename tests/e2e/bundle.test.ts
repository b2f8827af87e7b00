// What a screen downloads, read from the scripts Chromium fetched and the modules each built chunk holds
// (dist/.vite/chunks.json, written by the build): the login screen carries none of the panel behind it, and a list
// screen none of the bespoke screens and pieces it does not name, nor the other language's dictionary; the live
// socket's client comes after a list's first rows.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, launchBrowser, networkQuiet, startServer, type RunningServer } from './harness';

const chunks = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../dist/.vite/chunks.json'), 'utf8')) as Record<string, string[]>;

/** The modules of every script the page fetched (requested by page time `until`, when given), once the network has been quiet. */
async function modulesLoaded(page: Page, until = Infinity): Promise<string[]> {
  await networkQuiet(page);
  const scripts = await page.evaluate(
    (t) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime <= (t ?? Infinity))
        .map((e) => new URL(e.name).pathname)
        .filter((p) => p.endsWith('.js')),
    Number.isFinite(until) ? until : null,
  );
  return scripts.flatMap((path) => chunks[path.slice(1)] ?? []);
}

/** Records, in every page of `context`, the page time `selector` first matches (read back with firstSeenAt). */
async function recordFirstSeen(context: BrowserContext, selector: string): Promise<void> {
  await context.addInitScript((wanted) => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector(wanted)) return;
      (window as unknown as { firstSeenAt: number }).firstSeenAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  }, selector);
}

const firstSeenAt = (page: Page) => page.evaluate(() => (window as unknown as { firstSeenAt: number }).firstSeenAt);

describe('what each screen downloads', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the login screen downloads no grid, form, live socket, data fetching, override, manifest or Russian dictionary code before it is drawn, and the shell, grid and manifests once it waits', async () => {
    const context = await browser.newContext();
    // The page time the password field first appears: what was requested by then is what the login screen needed.
    await recordFirstSeen(context, 'input[type="password"]');
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Password').waitFor();
    const drawnAt = await firstSeenAt(page);
    const modules = await modulesLoaded(page, drawnAt);
    expect(modules).toContain('src/mui/LoginScreen.tsx');
    const panelCode = /node_modules\/(@mui\/x-data-grid|@rjsf|socket\.io-client|swr)\/|^overrides\/(?!names\.ts$)|^src\/i18n\/ru\.json$|^src\/mui\/(Shell|ListScreen|FormModal|DataTable)\.tsx$/;
    expect(modules.filter((m) => panelCode.test(m))).toEqual([]);
    // Nor the language menu's (a popover, a modal, a focus trap, menu items): it comes when the pointer or the
    // focus reaches its button. Nor the manifests (only the roles): they come while the user types.
    expect(modules.filter((m) => /node_modules\/@mui\/material\/(Menu|MenuItem|Popover|Modal)\/|^schemas\/(?!roles\.json$)|^src\/core\/manifest\//.test(m))).toEqual([]);
    // While the user types, the code behind the login is fetched ahead (but no form code and no Russian dictionary).
    // It starts when the browser is first idle (at most 1 s after the screen showed): poll until it came.
    const ahead = (modules: string[]) =>
      modules.includes('src/mui/Shell.tsx') && modules.some((m) => m.startsWith('node_modules/@mui/x-data-grid/')) && modules.includes('schemas/appinfo.json');
    await expect.poll(async () => ahead(await modulesLoaded(page)), { timeout: 15_000 }).toBe(true);
    const later = await modulesLoaded(page);
    expect(later.filter((m) => /node_modules\/@rjsf\/|^src\/i18n\/ru\.json$/.test(m))).toEqual([]);
    await context.close();
  });

  it('the language menu of the login screen opens from the keyboard, its code fetched once the focus reaches its button', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Password').waitFor();
    await page.getByTestId('language-switch').focus();
    await page.keyboard.press('Enter');
    // The menu draws with the languages, each named in itself, and takes the focus (Escape then closes it).
    const current = page.getByRole('menuitem', { name: 'English' });
    await current.waitFor();
    await expect.poll(() => current.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('menuitem', { name: 'Русский' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await page.getByTestId('language-switch').evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('a list reached through the login downloads no live socket client and no popup code (menus, tooltips, lookups, dialogs) before its first rows, then opens the live socket, and its column chooser opens', async () => {
    const care = { email: 'care@example.com', password: 'care-password-1' };
    const token = await server.login();
    await server.api('GET', '/v1/admin/user/add', { ...care, role: 'customercare' }, token);
    await server.api('POST', '/v1/appinfo/report', { appInstallId: 'install-1', email: 'viewer@example.com', login: 'viewer', version: '1.0.0', whitelabel: 'aurora', platform: 'tizen', userId: 'u1' });
    // Reports are stored in batches: the home list has its row before the login.
    await expect.poll(async () => (await server.api('GET', '/v1/admin/appinfo/get', { page: 1, pageSize: 1 }, token)).data?.rows?.length).toBe(1);
    const context = await browser.newContext();
    // The page time the App Info list's first cell first appears: what had arrived by then is what the rows needed.
    await recordFirstSeen(context, '[role="gridcell"]');
    const page = await context.newPage();
    const socketOpened = page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/socket.io/'));
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(care.email);
    await page.getByLabel('Password').fill(care.password);
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('gridcell', { name: 'viewer@example.com' }).waitFor();
    await socketOpened;
    const rowsAt = await firstSeenAt(page);
    const arrived = await page.evaluate(
      (t) =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => e.responseEnd <= t)
          .map((e) => new URL(e.name).pathname)
          .filter((p) => p.endsWith('.js')),
      rowsAt,
    );
    const modules = arrived.flatMap((path) => chunks[path.slice(1)] ?? []);
    expect(modules).toContain('src/mui/ListScreen.tsx');
    expect(modules.filter((m) => /node_modules\/(socket\.io-client|engine\.io-client)\//.test(m))).toEqual([]);
    // Nor the code of what the grid's menus, panels, tooltips, lookups and dialogs pop up: it follows the rows...
    const popups = /node_modules\/(@popperjs\/|@mui\/material\/((Popper|Autocomplete|useAutocomplete|Tabs|Tab|Modal)\/|Dialog\/Dialog\.mjs))/;
    expect(modules.filter((m) => popups.test(m))).toEqual([]);
    // (They are fetched once the browser is idle after the rows, which may come after a quiet half second: polled.)
    await expect.poll(async () => (await modulesLoaded(page)).filter((m) => popups.test(m)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    // ...and the grid's column chooser, a popup, opens with the list's columns.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Email' }).waitFor();
    await context.close();
  });

  it('a list screen downloads no bespoke screen or piece it does not name and no Russian dictionary', async () => {
    const answer = await server.api('POST', '/v1/user/login', ADMIN);
    const context = await browser.newContext();
    await context.addInitScript(
      ([token, user]) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', user);
      },
      [answer.data.token as string, JSON.stringify(answer.data.user)] as const,
    );
    const page = await context.newPage();
    await page.goto(`${server.url}/platforms`);
    await page.locator('.MuiDataGrid-root').waitFor();
    const modules = await modulesLoaded(page);
    expect(modules.some((m) => m.startsWith('node_modules/@mui/x-data-grid/'))).toBe(true);
    // (The registry's own small entries, a lazy form's wrapper and the form widgets, come with the panel.)
    const notNamed = /^overrides\/(dashboard|pipelines|combination|test-request|experiment|testers-phones)\/|^overrides\/ip-import\/IpImport|^overrides\/whitelabel\/WhitelabelForm|^src\/i18n\/ru\.json$/;
    expect(modules.filter((m) => notNamed.test(m))).toEqual([]);
  });
});
