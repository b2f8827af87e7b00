// Live lists, end to end: staff member B edits a platform in one browser context; in another, A's open list shows
// the new value without a reload, on the same page, filter and scroll position, and A's open edit form of a record B
// changes says who changed it. A change made before the socket first connects, or while it is cut, shows in the
// open list once it connects, still without a reload.
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

const DEVELOPER = { email: 'dev@example.com', password: 'developer-password-1' };
const TESTER = { email: 'tester@example.com', password: 'tester-password-1' };
const LIVE_SOCKET = /\/socket\.io\//;
const name = (n: number) => `live-${String(n).padStart(2, '0')}`;

describe('live lists', () => {
  let server: RunningServer;
  let browser: Browser;
  let a: Page;
  let b: Page;
  const ids = new Map<string, number>();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    await server.api('GET', '/v1/admin/user/add', { ...DEVELOPER, role: 'developer' }, token);
    await server.api('GET', '/v1/admin/user/add', { ...TESTER, role: 'tester' }, token);
    for (let n = 1; n <= 80; n++) {
      const added = await server.api('GET', '/v1/admin/platform/add', { name: name(n), maxVersion: '1.0.0' }, token);
      ids.set(name(n), added.data.id);
    }
    await server.api('GET', '/v1/admin/platform/add', { name: 'other', maxVersion: '1.0.0' }, token);
    a = await (await browser.newContext({ viewport: { width: 1400, height: 700 } })).newPage();
    b = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await Promise.all([loginThroughScreen(a, server), loginThroughScreen(b, server, DEVELOPER.email, DEVELOPER.password)]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows B's edit in A's list without a reload, keeping A's page, filter and scroll", async () => {
    await a.goto(`${server.url}/platforms?page=2&size=50&name=live`);
    await a.getByText('51–80 of 80').waitFor();
    await a.locator('.MuiDataGrid-row', { hasText: name(51) }).waitFor();
    // A marker that a page reload would wipe, and a scroll position the refresh must keep.
    await a.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const scroller = a.locator('.MuiDataGrid-virtualScroller');
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await a.locator('.MuiDataGrid-row', { hasText: name(80) }).waitFor();
    const scrolled = await scroller.evaluate((el) => el.scrollTop);
    expect(scrolled).toBeGreaterThan(0);

    await b.goto(`${server.url}/platforms?name=${name(78)}`);
    await b.getByTestId('list-count').filter({ hasText: /^1 total$/ }).waitFor();
    await b.locator('.MuiDataGrid-row', { hasText: name(78) }).getByRole('button', { name: 'Edit' }).click();
    const form = b.getByRole('dialog');
    await form.getByLabel('Name').fill('live-78-renamed-by-b');
    await form.getByRole('button', { name: 'OK' }).click();
    await form.waitFor({ state: 'hidden' });

    await a.locator('.MuiDataGrid-row', { hasText: 'live-78-renamed-by-b' }).waitFor();
    expect(await a.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    const url = new URL(a.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: '2', size: '50', name: 'live' });
    await a.getByText('51–80 of 80').waitFor();
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(scrolled);
  });

  it("tells A's open edit form that B changed the record, naming B", async () => {
    await a.goto(`${server.url}/platforms?name=${name(12)}`);
    await a.getByTestId('list-count').filter({ hasText: /^1 total$/ }).waitFor();
    await a.locator('.MuiDataGrid-row', { hasText: name(12) }).getByRole('button', { name: 'Edit' }).click();
    const form = a.getByRole('dialog');
    await form.getByLabel('Name').waitFor();
    expect(await form.getByTestId('record-changed').count()).toBe(0);

    // A change of another record says nothing in this form.
    const token = await server.login(DEVELOPER.email, DEVELOPER.password);
    await server.api('GET', '/v1/admin/platform/edit', { id: ids.get(name(13)), maxVersion: '1.0.1' }, token);
    await server.api('GET', '/v1/admin/platform/edit', { id: ids.get(name(12)), maxVersion: '2.0.0' }, token);
    await form.getByTestId('record-changed').filter({ hasText: `changed by ${DEVELOPER.email}` }).waitFor();
    expect(await form.getByTestId('record-changed').count()).toBe(1);
  });

  it('shows a change made after the home list drew its first rows and before the live socket first connected', async () => {
    const token = await server.login(TESTER.email, TESTER.password);
    await server.api('GET', '/v1/admin/testersIP/add', { ip: '10.1.1.1', vendor: 'lg' }, token);
    const context = await browser.newContext();
    let connect!: () => void;
    const connecting = new Promise<void>((resolve) => (connect = resolve));
    await context.route(LIVE_SOCKET, async (route) => {
      await connecting;
      await route.continue();
    });
    const page = await context.newPage();
    await loginThroughScreen(page, server, TESTER.email, TESTER.password);
    await page.locator('.MuiDataGrid-row', { hasText: '10.1.1.1' }).waitFor();
    await server.api('GET', '/v1/admin/testersIP/add', { ip: '10.2.2.2', vendor: 'lg' }, token);
    connect();
    await page.locator('.MuiDataGrid-row', { hasText: '10.2.2.2' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/testerIP');
    await context.close();
  });

  it('shows a change the live socket heard of before the home list could draw the rows asked for at login', async () => {
    const token = await server.login(TESTER.email, TESTER.password);
    const context = await browser.newContext();
    const holds = [/\/assets\/panel-[\w-]+\.js$/, LIVE_SOCKET].map((pattern) => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      return { pattern, release, held };
    });
    for (const { pattern, held } of holds) {
      await context.route(pattern, async (route) => {
        await held;
        await route.continue();
      });
    }
    const [panelCode, liveSocket] = holds;
    const page = await context.newPage();
    let heardMissed = false;
    const hear = (text: string) => (heardMissed ||= text.includes('"missed":true'));
    page.on('response', (response) => void (LIVE_SOCKET.test(response.url()) && response.text().then(hear, () => undefined)));
    page.on('websocket', (ws) => ws.on('framereceived', (frame) => hear(String(frame.payload))));
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(TESTER.email);
    await page.getByLabel('Password').fill(TESTER.password);
    const firstRows = page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/admin/testersIP/get');
    await page.getByRole('button', { name: 'Login' }).click();
    await firstRows;
    await server.api('GET', '/v1/admin/testersIP/add', { ip: '10.4.4.4', vendor: 'lg' }, token);
    liveSocket.release();
    await expect.poll(() => heardMissed, { timeout: 10_000 }).toBe(true);
    panelCode.release();
    await page.locator('.MuiDataGrid-row', { hasText: '10.4.4.4' }).waitFor();
    await context.close();
  });

  it('shows a change made while the live socket was cut once it reconnects, without a reload', async () => {
    const context = await browser.newContext();
    let cut = false;
    const open: WebSocketRoute[] = [];
    await context.route(LIVE_SOCKET, (route) => (cut ? route.abort() : route.continue()));
    await context.routeWebSocket(LIVE_SOCKET, (ws) => {
      if (cut) return ws.close();
      open.push(ws, ws.connectToServer());
    });
    const page = await context.newPage();
    // Cut only once the list's socket has moved to its WebSocket ('5' is engine.io's upgrade): a long poll already
    // on its way would still deliver.
    let upgraded = false;
    page.on('websocket', (ws) => {
      const ofList = new URL(page.url()).pathname === '/platforms';
      ws.on('framesent', (frame) => (upgraded ||= ofList && frame.payload === '5'));
    });
    await loginThroughScreen(page, server);
    await page.goto(`${server.url}/platforms?name=resync`);
    await expect.poll(() => upgraded, { timeout: 10_000 }).toBe(true);
    const token = await server.login();
    await server.api('GET', '/v1/admin/platform/add', { name: 'resync-live', maxVersion: '1.0.0' }, token);
    await page.locator('.MuiDataGrid-row', { hasText: 'resync-live' }).waitFor();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    cut = true;
    for (const ws of open.splice(0)) await ws.close();
    await server.api('GET', '/v1/admin/platform/add', { name: 'resync-while-cut', maxVersion: '1.0.0' }, token);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await page.locator('.MuiDataGrid-row', { hasText: 'resync-while-cut' }).count()).toBe(0);

    cut = false;
    await page.locator('.MuiDataGrid-row', { hasText: 'resync-while-cut' }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await context.close();
  });
});
