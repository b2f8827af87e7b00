// What staff stumbled on in daily use, in a real browser against the real server: the whole menu at laptop
// widths, values shown in full, errors as sentences about the field, a cleared field that really clears, yes/no
// filters, English titles, and the users screen of a collection that does not exist.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWhitelabel, insertRows, shot, showColumn } from './catalogue-helpers';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';
import { isEntityFile } from '../../kernel/manifest/files.ts';
import { ROLES } from '../../kernel/roles.ts';

const LONG_EMAIL = 'a.rather.long.customer.address@example-television-company.com';
const LONG_INSTALL = 'demo-install-0b7e5c1e-2f4d-4a8b-9c3e-5d6f7a8b9c0d';
const HUGE_LOGIN = `login-${'x'.repeat(90)}-end`;

/** The routes of the admin's menu, read from the manifests as the panel builds it. */
function adminMenuRoutes(): string[] {
  const dir = resolve(import.meta.dirname, '../../schemas');
  return readdirSync(dir)
    .filter(isEntityFile)
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
    .filter((m) => m.screen?.menu && (m.screen.menu.roles ?? m.screen.roles).includes('admin'))
    .map((m) => m.screen.route)
    .sort();
}

describe('the screens staff use daily', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let token: string;
  let experiment: number;
  const insert = (table: string, rows: Record<string, unknown>[]) => insertRows(server, table, rows);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    token = await server.login();
    const wl = await addWhitelabel(server, token, 'acme');
    const platform = (await server.api('GET', '/v1/admin/platform/add', { name: 'tizen', maxVersion: '01.20.34' }, token)).data.id;
    await server.api('GET', '/v1/admin/testersEmails/add', { email: 'on@lg.com', active: true }, token);
    await server.api('GET', '/v1/admin/testersEmails/add', { email: 'off@lg.com', active: false }, token);
    insert('app_infos', [
      { email: LONG_EMAIL, login: 'anna', appInstallId: LONG_INSTALL, version: '1.20.34', whitelabel: 'acme', platform: 'tizen', userId: 'user-1', active: 'yes' },
      { email: 'b@example.com', login: HUGE_LOGIN, appInstallId: 'short-1', version: '1.20.34', whitelabel: 'acme', platform: 'tizen', userId: 'user-2', active: 'yes' },
    ]);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      whitelabelId: String(wl), platformIds: JSON.stringify([platform]), modelNames: '["UE55"]', recordsCount: '4',
      versionsDeploymentSettings: JSON.stringify([{ count: 4, groupName: 'A' }]), isCollecting: 'true', isRandomSaveEnable: 'true', probability: '1',
    })) form.append(k, v);
    const added = await fetch(`${server.url}/v1/admin/abtesting/add`, { method: 'POST', headers: { Authorization: token }, body: form });
    experiment = ((await added.json()) as { data: { id: number } }).data.id;
    insert('experiment_users', ['u-1', 'u-2', 'u-3', 'u-4'].map((appInstallId, i) => ({
      abtestingId: experiment, appInstallId, modelName: 'UE55', version: '1.20.34', whitelabel: 'acme', platform: i % 2 ? 'webos' : 'tizen', userId: `user-${i}`,
    })));
    page = await (await browser.newContext({ viewport: { width: 1024, height: 800 } })).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const rowOf = (text: string) => page.locator('.MuiDataGrid-row', { hasText: text });
  const nav = () => page.getByRole('navigation', { name: 'Main menu' });

  /** Every route the menu offers: links on the bar, the items of its dropdowns, and what "More" holds. */
  async function reachableRoutes(): Promise<string[]> {
    const routes: string[] = [];
    const width = page.viewportSize()!.width;
    for (const entry of await nav().locator(':scope > a, :scope > button').all()) {
      const box = (await entry.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const href = await entry.getAttribute('href');
      if (href) {
        routes.push(href);
        continue;
      }
      await entry.click();
      const items = page.getByRole('menu').getByRole('menuitem');
      await items.first().waitFor();
      for (const item of await items.all()) {
        expect(await item.isVisible()).toBe(true);
        routes.push((await item.getAttribute('href'))!);
      }
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'detached' });
    }
    return routes.sort();
  }

  for (const width of [1024, 1280]) {
    it(`reaches every screen of the admin's menu at ${width} px, on the bar or under More`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${server.url}/platforms`);
      await nav().getByRole('button', { name: 'More' }).waitFor();
      expect(await reachableRoutes()).toEqual(adminMenuRoutes());
      await shot(page, `menu-${width}`);
      // An entry under More opens its screen.
      await nav().getByRole('button', { name: 'More' }).click();
      await shot(page, `menu-${width}-more`);
      // The bar itself never scrolls: nothing on it is pushed out of sight.
      // (The open menu hides the rest of the page from the accessibility tree: the bar is found by its selector.)
      const bar = page.locator('nav[aria-label="Main menu"]');
      expect(await bar.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollLeft === 0)).toBe(true);
      await page.getByRole('menuitem', { name: 'A/B experiments' }).click();
      await page.getByRole('heading', { name: /A\/B experiments/ }).waitFor();
    });
  }

  it('keeps the whole menu on the bar when the screen is wide enough', async () => {
    await page.setViewportSize({ width: 1920, height: 900 });
    await page.goto(`${server.url}/platforms`);
    await nav().getByRole('button', { name: 'A/B' }).waitFor();
    expect(await nav().getByRole('button', { name: 'More' }).count()).toBe(0);
  });

  it('sizes App Info columns to their values and shows a value cut by a narrow screen in full on hover', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/appinfo`);
    await rowOf('anna').waitFor();
    // The huge login's width makes columns give way (the priority rule); the three are shown again from the chooser.
    await showColumn(page, 'App install id');
    await showColumn(page, 'Login');
    await showColumn(page, 'Email');
    const cut = (text: string) =>
      rowOf(text).locator('[data-overflow-text]', { hasText: text }).evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(await cut(LONG_EMAIL)).toBe(false);
    expect(await cut(LONG_INSTALL)).toBe(false);
    // Wider than any column may grow: cut, with the whole value on hover.
    const huge = rowOf('short-1').locator('[data-overflow-text]', { hasText: 'login-' });
    expect(await huge.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await huge.hover();
    expect(await huge.getAttribute('title')).toBe(HUGE_LOGIN);
    await shot(page, 'appinfo-1440');
  });

  it('wraps long values in a details row that stays inside the visible width', async () => {
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto(`${server.url}/appinfo`);
    await showColumn(page, 'App install id');
    await rowOf('short-1').getByRole('button', { name: 'Details' }).click();
    const details = page.getByTestId('row-details');
    await details.waitFor();
    const grid = (await page.locator('.MuiDataGrid-main').boundingBox())!;
    const box = (await details.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(grid.x + grid.width + 1);
    const login = details.locator('[data-field="login"]');
    const value = (await login.boundingBox())!;
    expect(value.x + value.width).toBeLessThanOrEqual(grid.x + grid.width + 1);
    expect(value.height).toBeGreaterThan(30);
    expect(await login.innerText()).toBe(HUGE_LOGIN);
    await shot(page, 'appinfo-details-1024');
  });

  it('says under the field the same sentence the server answers for the same bad value', async () => {
    await page.goto(`${server.url}/platforms`);
    await page.getByRole('button', { name: 'Add' }).click();
    await dialog().getByLabel('Name').fill('webos');
    await dialog().getByLabel('Max version').fill('1.2');
    const sentence = 'Max version must be a version XX.YY.ZZ, like 01.20.34';
    await dialog().getByText(sentence).waitFor();
    expect(await dialog().getByRole('button', { name: 'OK' }).isDisabled()).toBe(true);
    expect((await server.api('GET', '/v1/admin/platform/add', { name: 'webos', maxVersion: '1.2' }, token)).message).toBe(sentence);
    await shot(page, 'platform-form-error');
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${server.url}/users`);
    await page.getByRole('button', { name: 'Add' }).click();
    await dialog().getByLabel('Password').fill('short');
    const password = 'Password must be at least 8 characters long';
    await dialog().getByText(password).waitFor();
    expect((await server.api('GET', '/v1/admin/user/add', { email: 'x@example.com', password: 'short', role: 'tester' }, token)).message).toBe(password);
    expect(await dialog().getByText(/must NOT|must match format/).count()).toBe(0);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  });

  it('labels each custom URL of a combination "URL 1", not "Custom build URLs-1 *"', async () => {
    await page.goto(`${server.url}/combinations`);
    await page.getByRole('button', { name: 'Add' }).click();
    await dialog().getByRole('button', { name: /Add/ }).last().click();
    await dialog().getByRole('textbox', { name: 'URL 1' }).waitFor();
    expect(await dialog().getByText(/Custom build URLs-\d/).count()).toBe(0);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  });

  it('clears an optional field that is emptied in an edit form', async () => {
    const build = await (async () => {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const dir = join(server.dataDir, 'builds/acme/tizen/1.0.0/1080p');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'app.js'), '//');
      await server.api('GET', '/v1/admin/build/reload', {}, token);
      return (await server.api('GET', '/v1/admin/build/get', {}, token)).data.rows[0].id;
    })();
    await server.api('GET', '/v1/admin/combination/add', { buildId: build, description: 'to be cleared', appInstallId: 'stays' }, token);
    await page.goto(`${server.url}/combinations`);
    await showColumn(page, 'App install ID');
    await rowOf('stays').getByRole('button', { name: 'Edit' }).click();
    expect(await dialog().getByLabel('Description').inputValue()).toBe('to be cleared');
    await dialog().getByLabel('Description').fill('');
    await dialog().getByRole('button', { name: 'OK' }).click();
    await dialog().waitFor({ state: 'detached' });
    const stored = (await server.api('GET', '/v1/admin/combination/get', {}, token)).data.rows[0];
    expect(stored).toMatchObject({ description: null, appInstallId: 'stays' });
  });

  it('filters a true/false field by yes or no', async () => {
    await page.goto(`${server.url}/testerEmails`);
    await rowOf('off@lg.com').waitFor();
    await page.getByLabel('Email is active').click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['any', 'yes', 'no']);
    await page.getByRole('option', { name: 'no' }).click();
    await rowOf('on@lg.com').waitFor({ state: 'detached' });
    expect(await page.locator('.MuiDataGrid-row').count()).toBe(1);
    await rowOf('off@lg.com').waitFor();
  });

  it('titles the modals in English and offers a user\'s roles without an empty first option, logging no error', async () => {
    const errors: string[] = [];
    const logged = (message: ConsoleMessage) => void (message.type() === 'error' && errors.push(message.text()));
    page.on('console', logged);
    for (const [route, title] of [
      ['/goalsAbtesting', 'Add goal'],
      ['/appVersionsOnTest', 'Add app version on test'],
      ['/techSupport', 'Add tech support URL'],
      ['/users', 'Add user'],
    ]) {
      await page.goto(`${server.url}${route}`);
      await page.getByRole('button', { name: 'Add' }).click();
      expect(await dialog().getByRole('heading').first().innerText()).toBe(title);
      if (route !== '/users') await dialog().getByRole('button', { name: 'Cancel' }).click();
    }
    await dialog().getByLabel('Role').click();
    expect(await page.getByRole('option').allTextContents()).toEqual([...ROLES]);
    await shot(page, 'user-form-roles');
    page.off('console', logged);
    // RJSF logs an error for a select whose schema default is not one of its options.
    expect(errors).toEqual([]);
  });

  it('heads a collection with its user count whatever the filters show', async () => {
    await page.goto(`${server.url}/abtesting/${experiment}`);
    await page.getByRole('heading', { name: `Collection ${experiment}: 4 users` }).waitFor();
    // Every text the heading takes while the filter applies, not only the last one.
    await page.evaluate(`{
      const h1 = document.querySelector('h1');
      window.headings = [];
      new MutationObserver(() => window.headings.push(h1.innerText)).observe(h1, { subtree: true, childList: true, characterData: true });
    }`);
    await page.getByRole('search').getByLabel('Platform').fill('webos');
    await page.getByRole('search').getByLabel('Platform').press('Enter');
    await rowOf('u-1').waitFor({ state: 'detached' });
    expect(await page.locator('.MuiDataGrid-row').count()).toBe(2);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Collection ${experiment}: 4 users`);
    expect((await page.evaluate<string[]>('window.headings')).filter((text) => text !== `Collection ${experiment}: 4 users`)).toEqual([]);
  });

  it('says that no such collection exists, and that a collection id is a number', async () => {
    await page.goto(`${server.url}/abtesting/999999`);
    await page.getByTestId('list-refused').getByText('No experiment with id 999999').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Users of an experiment');
    expect(await page.getByText(/0 users/).count()).toBe(0);
    await shot(page, 'collection-missing');
    await page.goto(`${server.url}/abtesting/abc`);
    await page.getByTestId('list-refused').getByText('Collection id must be a whole number').waitFor();
  });
});
