// The Test request screen in Chromium: fill the form, press Send, a new tab opens the device lookup with that
// query, and the same answer shows below the form, formatted (the build, matchedBy, the URLs as links).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWhitelabel, dropBuild, shot } from './catalogue-helpers';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

describe('the Test request screen', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    const whitelabelId = await addWhitelabel(server, token, 'acme');
    const platform = await server.api('GET', '/v1/admin/platform/add', { name: 'tizen', maxVersion: '01.20.34' }, token);
    dropBuild(server, ['acme', 'tizen', '1.20.33', '1080p']);
    dropBuild(server, ['acme', 'tizen', '1.20.34', '1080p']);
    await server.api('GET', '/v1/admin/build/reload', {}, token);
    const builds = (await server.api('GET', '/v1/admin/build/get', {}, token)).data.rows as { id: number; name: string }[];
    const pinned = builds.find((b) => b.name === 'acme-tizen-1.20.33-1080p')!.id;
    await server.api('GET', '/v1/admin/combination/add', { whitelabelId, platformId: platform.data.id, buildId: pinned, ipAddress: '203.0.113.5' }, token);
    await server.api('GET', '/v1/admin/user/add', { email: 'dev@example.com', password: 'dev-password-1', role: 'developer' }, token);
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    page = await context.newPage();
    await loginThroughScreen(page, server, 'dev@example.com', 'dev-password-1');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens the lookup in a new tab on Send and shows the answer formatted below the form', async () => {
    await page.goto(`${server.url}/testRequest`);
    await page.getByRole('heading', { name: 'Test request' }).waitFor();
    await page.getByLabel('Installation GUID').fill('tv-e2e-1');
    await page.getByLabel('IP address').fill('203.0.113.5');
    await page.getByLabel('Whitelabel name').fill('acme');
    await page.getByLabel('Platform name').fill('tizen');
    await page.getByLabel('Resolution').fill('1080p');
    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Send' }).click()]);
    await tab.waitForLoadState();
    const opened = new URL(tab.url());
    expect(opened.pathname).toBe('/v1/combination/get');
    expect(Object.fromEntries(opened.searchParams)).toEqual({
      platform: '{"name":"tizen"}',
      ipAddress: '203.0.113.5',
      appInstallId: 'tv-e2e-1',
      whitelabel: 'acme',
      resolution: '1080p',
    });
    expect(JSON.parse((await tab.textContent('body'))!).data.matchedBy).toBe('ip');
    await tab.close();

    const answer = page.getByRole('region', { name: 'Lookup answer' });
    await answer.getByText('matchedBy: ip').waitFor();
    await answer.getByText('A combination for this IP address (rule 2)').waitFor();
    await answer.getByText('acme-tizen-1.20.33-1080p').waitFor();
    const link = answer.getByRole('link', { name: /\/builds\/acme\/tizen\/1\.20\.33\/1080p\/app\.js$/ });
    expect(await link.getAttribute('href')).toBe(`${server.url}/builds/acme/tizen/1.20.33/1080p/app.js`);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await answer.getByRole('link', { name: /acme_1280x720\.png$/ }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Lookup URL' }).getAttribute('href')).toBe(opened.toString());
    await shot(page, 'test-request-1440');
  });

  it('shows the newest build when no IP combination applies, and the 404 message when nothing matches', async () => {
    await page.getByLabel('IP address').fill('');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByRole('region', { name: 'Lookup answer' });
    await answer.getByText('matchedBy: latest').waitFor();
    await answer.getByText('acme-tizen-1.20.34-1080p').waitFor();
    for (const tab of context.pages().slice(1)) await tab.close();

    await page.getByLabel('Whitelabel name').fill('nosuch');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('alert').filter({ hasText: '404: No whitelabel named "nosuch"' }).waitFor();
    for (const tab of context.pages().slice(1)) await tab.close();
  });

  it('keeps Send disabled while the IP address is not one', async () => {
    await page.getByLabel('IP address').fill('10.0.0.300');
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await page.getByText('An IPv4 address, e.g. 203.0.113.9').waitFor();
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.getByLabel('IP address').fill('203.0.113.5');
    await page.getByLabel('Whitelabel name').fill('acme');
    // The names offered while typing cover the button at this width; Escape closes them, as a user would.
    await page.getByRole('combobox', { name: 'Whitelabel name' }).press('Escape');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('region', { name: 'Lookup answer' }).getByText('matchedBy: ip').waitFor();
    await shot(page, 'test-request-1024');
  });
});
