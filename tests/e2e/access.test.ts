import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

describe('boot and access rules in Chromium against the real server', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a tester who opens /users to /testerIP', async () => {
    const token = await server.login();
    const created = await server.api('GET', '/v1/admin/user/add', { email: 'tester@example.com', password: 'tester-pass-1', role: 'tester' }, token);
    expect(created.result).toBe(true);
    const page = await (await browser.newContext()).newPage();
    await loginThroughScreen(page, server, 'tester@example.com', 'tester-pass-1');
    await page.goto(`${server.url}/users`);
    await page.waitForURL((url) => url.pathname === '/testerIP');
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);
  });

  it('cancels the navigation of a developer to /users: the developer stays on the screen it was on', async () => {
    const token = await server.login();
    await server.api('GET', '/v1/admin/user/add', { email: 'dev@example.com', password: 'developer-1', role: 'developer' }, token);
    const page = await (await browser.newContext()).newPage();
    await loginThroughScreen(page, server, 'dev@example.com', 'developer-1');
    await page.goto(`${server.url}/platforms`);
    await page.getByRole('heading', { name: /Platforms/ }).waitFor();
    await page.evaluate(() => {
      history.pushState({}, '', '/users');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL((url) => url.pathname === '/platforms');
    await page.getByRole('heading', { name: /Platforms/ }).waitFor();
  });

  it('shows only "Error while fetching config" when /config.json fails', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.route('**/config.json', (route) => route.fulfill({ status: 500, body: 'down' }));
    await page.goto(`${server.url}/login`);
    await page.getByText('Error while fetching config').waitFor();
    expect((await page.locator('body').innerText()).trim()).toBe('Error while fetching config');
  });
});

describe('a host outside availableHosts', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ PANEL_HOSTS: 'somewhere.example' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows only "Нет доступа!" and no navigation', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}/platforms`);
    await page.getByText('Нет доступа!').waitFor();
    expect((await page.locator('body').innerText()).trim()).toBe('Нет доступа!');
    expect(await page.locator('nav, a, button').count()).toBe(0);
  });
});
