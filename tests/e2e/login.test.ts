import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, launchBrowser, loginThroughScreen, networkQuiet, startServer, type RunningServer } from './harness';

describe('login screen in Chromium against the real server', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await (await browser.newContext()).newPage();
  });

  it('shows the red alert with the server message when the password is wrong', async () => {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login' }).click();
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).not.toBe('');
    expect(await alert.evaluate((el) => el.className)).toContain('MuiAlert-colorError');
    const [r, g, b] = (await alert.evaluate((el) => getComputedStyle(el).backgroundColor)).match(/\d+/g)!.map(Number);
    expect(r).toBeGreaterThan(150);
    expect(Math.max(g, b)).toBeLessThan(100);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('logs in, lands on / with the e-mail and version in the top bar, and sends a logged-in visitor from /login to /', async () => {
    await loginThroughScreen(page, server);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByTestId('user-email').textContent()).toBe(ADMIN.email);
    expect(await page.locator('header').textContent()).toContain('1.20.34');
    const cookies = await page.context().cookies();
    const auth = cookies.find((c) => c.name === 'Authorization');
    expect(auth).toBeDefined();
    expect(auth!.expires - Date.now() / 1000).toBeGreaterThan(31536000 - 3600);

    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  // The login screen fetches the screens behind it while the user types: a slow or failed fetch must not keep
  // the user from the home list.
  const CARE = { email: 'care@example.com', password: 'care-password-1' };
  let careAdded: Promise<unknown> | undefined;
  /** The login screen filled in for customer care, whose home is the App Info list. */
  async function fillCareLogin() {
    careAdded ??= server.login().then((token) => server.api('GET', '/v1/admin/user/add', { ...CARE, role: 'customercare' }, token));
    await careAdded;
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(CARE.email);
    await page.getByLabel('Password').fill(CARE.password);
  }

  /** Records what each frame from now on shows (checked before the frame is drawn), until a list's rows are there. */
  async function watchFrames() {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { shown: string[] }).shown = seen;
      // Shown: laid out (React hides what a fallback replaces with display: none, keeping it in the page).
      const shows = (selector: string) => [...document.querySelectorAll(selector)].some((el) => el.getClientRects().length > 0);
      const look = () => {
        const now = shows('input[type="password"]')
          ? 'login screen'
          : shows('.MuiDataGrid-row')
            ? 'panel with rows'
            : shows('header')
              ? 'panel without rows'
              : 'blank';
        if (seen.at(-1) !== now) seen.push(now);
        if (now !== 'panel with rows') requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
  }
  const framesSeen = () => page.evaluate(() => (window as unknown as { shown: string[] }).shown);

  it('fetches the panel code while the login screen waits, and still reaches the home list when that fetch is slow', async () => {
    const panelChunk = /\/assets\/panel-[\w-]+\.js$/;
    let requested = false;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(panelChunk, async (route) => {
      requested = true;
      await held;
      await route.continue();
    });
    await reportAppInfo('slow-code@example.com');
    await fillCareLogin();
    await expect.poll(() => requested).toBe(true);
    await watchFrames();
    await page.getByRole('button', { name: 'Login' }).click();
    // The session opens without the code (the login waits for it 300 ms at most): the login screen stays drawn
    // until the home can draw, not a blank page or the loading bar.
    setTimeout(release, 800);
    await page.locator('.MuiDataGrid-row', { hasText: 'slow-code@example.com' }).waitFor();
    expect(await framesSeen()).toEqual(['login screen', 'panel with rows']);
    expect(new URL(page.url()).pathname).toBe('/appinfo');
  });

  it('reaches the home list when the panel code failed to download while the login screen waited', async () => {
    const panelChunk = /\/assets\/panel-[\w-]+\.js$/;
    let failed = 0;
    await page.route(panelChunk, (route) => (failed++ === 0 ? route.abort() : route.continue()));
    await fillCareLogin();
    await expect.poll(() => failed).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.getByRole('columnheader', { name: 'Email' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/appinfo');
  });

  it('asks for the home list the moment the login answers, while the screen code is still on its way, and only once', async () => {
    const panelChunk = /\/assets\/panel-[\w-]+\.js$/;
    const listCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/admin/appinfo/get') listCalls.push(request.url());
    });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(panelChunk, async (route) => {
      await held;
      await route.continue();
    });
    await fillCareLogin();
    await page.getByRole('button', { name: 'Login' }).click();
    // The screen cannot draw yet (its code is held), but its first page is already asked for.
    await expect.poll(() => listCalls.length).toBe(1);
    release();
    await page.getByRole('columnheader', { name: 'Email' }).waitFor();
    await networkQuiet(page);
    expect(listCalls).toHaveLength(1);
    expect(new URL(listCalls[0]).searchParams.get('page')).toBe('1');
  });

  // The manifests come as code of their own, which the login screen fetches once it is drawn (the login itself
  // asks for them when they are not here yet).
  const manifestsChunk = /\/assets\/manifests-[\w-]+\.js$/;

  it('logs in when the click comes before the manifests: the home list draws with its rows once they are here', async () => {
    await reportAppInfo('early-click@example.com');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let asked = 0;
    await page.route(manifestsChunk, async (route) => {
      asked++;
      await held;
      await route.continue();
    });
    await fillCareLogin();
    const loginSent = page.waitForRequest((request) => new URL(request.url()).pathname === '/v1/user/login');
    await page.getByRole('button', { name: 'Login' }).click();
    await loginSent;
    // The login screen stays drawn (its spinner turning) while they are held.
    await page.waitForTimeout(300);
    expect(await page.getByRole('progressbar', { name: 'Logging in' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Password').isVisible()).toBe(true);
    release();
    await page.locator('.MuiDataGrid-row', { hasText: 'early-click@example.com' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/appinfo');
    expect(asked).toBe(1);
  });

  it('says "Network Error" when the manifests cannot be downloaded, and logs in at the next click once they can', async () => {
    let failing = true;
    let failed = 0;
    await page.route(manifestsChunk, (route) => (failing ? (failed++, route.abort()) : route.continue()));
    await fillCareLogin();
    await page.getByRole('button', { name: 'Login' }).click();
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).toBe('Network Error');
    expect(failed).toBeGreaterThan(0);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    failing = false;
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.getByRole('columnheader', { name: 'Email' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/appinfo');
  });

  /** An app info for the care home list, stored (reports are stored in batches) before the test logs in. */
  async function reportAppInfo(email: string) {
    await server.api('POST', '/v1/appinfo/report', { appInstallId: `tv-${email}`, email, login: email.split('@')[0], version: '1.0.0', whitelabel: 'aurora', platform: 'tizen', userId: `u-${email}` });
    const token = await server.login();
    await expect.poll(async () => (await server.api('GET', '/v1/admin/appinfo/get', { email }, token)).data?.rows?.length).toBe(1);
  }

  it('goes from the login screen straight to the panel with its home list rows: no frame between is blank or shows the list loading', async () => {
    await reportAppInfo('first-frame@example.com');
    await fillCareLogin();
    await page.waitForLoadState('networkidle');
    await watchFrames();
    await page.getByRole('button', { name: 'Login' }).click();
    await page.locator('.MuiDataGrid-row', { hasText: 'first-frame@example.com' }).waitFor();
    expect(await framesSeen()).toEqual(['login screen', 'panel with rows']);
    expect(new URL(page.url()).pathname).toBe('/appinfo');
  });

  it('opens the session without its home list when that list is slow to answer, and draws the rows when they come', async () => {
    await reportAppInfo('slow-list@example.com');
    await fillCareLogin();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route((url) => url.pathname === '/v1/admin/appinfo/get', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Login' }).click();
    // The shell is there (the top bar's Logout) while the list's answer is still held.
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/appinfo');
    release();
    await page.locator('.MuiDataGrid-row', { hasText: 'slow-list@example.com' }).waitFor();
  });

  it('rehearses the home list hidden while the login screen waits: its styles are in, no call went out, nothing is left on the page', async () => {
    const calls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/')) calls.push(request.url());
    });
    const errors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    // The most language switches the page ever held at once: the rehearsal's bar must not add a second one.
    await page.addInitScript(() => {
      const w = window as unknown as { switches: number };
      w.switches = 0;
      new MutationObserver(() => (w.switches = Math.max(w.switches, document.querySelectorAll('[data-testid="language-switch"]').length))).observe(document, {
        childList: true,
        subtree: true,
      });
    });
    await page.goto(`${server.url}/login`);
    const bodyChildren = () => page.evaluate(() => document.body.children.length);
    const before = await bodyChildren();
    /** Whether the page holds the grid's rows' styles (no grid was ever shown on it). */
    const gridStyled = () =>
      page.evaluate(() =>
        [...document.styleSheets].some((sheet) => [...sheet.cssRules].some((rule) => rule.cssText.includes('.MuiDataGrid-row'))),
      );
    await expect.poll(gridStyled, { timeout: 10_000 }).toBe(true);
    // Once drawn, the rehearsal is dropped: the page holds the login screen alone again.
    await expect.poll(bodyChildren).toBe(before);
    await networkQuiet(page);
    expect(calls).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.locator('.MuiDataGrid-root').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { switches: number }).switches)).toBe(1);
    expect(await page.getByRole('button', { name: 'Login' }).isVisible()).toBe(true);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByTestId('user-email').waitFor();
    expect(calls.map((url) => new URL(url).pathname)[0]).toBe('/v1/user/login');
  });

  it('logs out: token, user and cookies are gone, and protected routes go to /login', async () => {
    await loginThroughScreen(page, server);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(await page.context().cookies()).toEqual([]);
    await page.goto(`${server.url}/platforms`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
