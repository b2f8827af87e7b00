// The catalogue screens in a real browser: Delete By Filter on builds, the tester's combination rules and the
// office IP, the localisation upload with its overwrite warning, and a look at every other catalogue screen.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWhitelabel, dropBuild, shot, showColumn } from './catalogue-helpers';
import { chooseOption, launchBrowser, loginThroughScreen, type RunningServer, startServer } from './harness';

const TESTER = { email: 'tester@example.com', password: 'tester-password-1' };

describe('the catalogue screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let token: string;
  const ids = { acme: 0, zeta: 0, tizen: 0 };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    token = await server.login();
    ids.acme = await addWhitelabel(server, token, 'acme');
    ids.zeta = await addWhitelabel(server, token, 'zeta');
    ids.tizen = (await server.api('GET', '/v1/admin/platform/add', { name: 'tizen', maxVersion: '01.20.34' }, token)).data.id;
    for (const wl of ['acme', 'zeta']) for (const v of ['1.0.0', '1.1.0']) dropBuild(server, [wl, 'tizen', v, '1080p']);
    await server.api('GET', '/v1/admin/build/reload', {}, token);
    await server.api('GET', '/v1/admin/user/add', { ...TESTER, role: 'tester' }, token);
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const rows = () => page.locator('.MuiDataGrid-row');
  const rowOf = (text: string) => page.locator('.MuiDataGrid-row', { hasText: text });

  describe('builds', () => {
    it('alerts "Fill some filter input" instead of deleting when no filter is filled', async () => {
      await page.goto(`${server.url}/builds`);
      await rowOf('zeta-tizen-1.1.0-1080p').waitFor();
      await shot(page, 'builds');
      await page.getByRole('button', { name: 'Delete By Filter' }).click();
      await dialog().getByText('Fill some filter input').waitFor();
      expect(await dialog().getByRole('button', { name: 'Cancel' }).count()).toBe(0);
      await dialog().getByRole('button', { name: 'OK' }).click();
      await dialog().waitFor({ state: 'detached' });
      expect(await rows().count()).toBe(4);
    });

    it('filters by a whitelabel and a platform picked from the existing ones, and by the start of a version', async () => {
      await page.getByLabel('Whitelabel').click();
      expect(await page.getByRole('option').allTextContents()).toEqual(['acme', 'zeta']);
      await page.getByRole('option', { name: 'zeta' }).click();
      await rowOf('acme-tizen-1.0.0-1080p').waitFor({ state: 'detached' });
      expect(await rows().count()).toBe(2);
      await chooseOption(page, page.getByLabel('Platform'), 'tizen');
      await page.getByLabel('Version').fill('1.1');
      await page.getByLabel('Version').press('Enter');
      await rowOf('zeta-tizen-1.0.0-1080p').waitFor({ state: 'detached' });
      expect(await rows().allTextContents()).toEqual([expect.stringContaining('zeta-tizen-1.1.0-1080p')]);
      await page.getByRole('button', { name: 'Clear' }).click();
      await rowOf('acme-tizen-1.0.0-1080p').waitFor();
    });

    it('deletes by what the filter box shows, applied or not, after saying how many builds match', async () => {
      await chooseOption(page, page.getByLabel('Whitelabel'), 'acme');
      await rowOf('zeta-tizen-1.0.0-1080p').waitFor({ state: 'detached' });
      await page.getByLabel('Version').fill('1.0');
      // Not applied with Enter: the list still shows both acme builds.
      expect(await rows().count()).toBe(2);
      await page.getByRole('button', { name: 'Delete By Filter' }).click();
      await dialog().getByText('Delete builds by selecting filter?').waitFor();
      expect(await dialog().getByTestId('confirm-detail').innerText()).toBe('1 build matches Whitelabel = acme, Version = 1.0.');
      // The filter is applied behind the question: the list shows what will go.
      await rowOf('acme-tizen-1.1.0-1080p').waitFor({ state: 'detached' });
      await shot(page, 'builds-delete-by-filter');
      await dialog().getByRole('button', { name: 'OK' }).click();
      await page.getByTestId('notice-detail').filter({ hasText: 'Deleted 1 build' }).waitFor();
      await page.getByText('No records').waitFor();
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      // The unfiltered page is cached from a moment ago (SWR dedupes re-reads within 2 s): read it afresh.
      await page.getByRole('button', { name: 'Reload' }).click();
      // The grid is empty while it reads again: wait for the rows that stay, then count them.
      await rowOf('acme-tizen-1.1.0-1080p').waitFor();
      await expect.poll(() => rows().count()).toBe(3);
      expect(await rowOf('acme-tizen-1.0.0').count()).toBe(0);
      expect((await server.api('GET', '/v1/admin/build/get', {}, token)).data.count).toBe(3);
    });

    // The URL (and so the applied filters) commits in a React transition, a moment after a pick or Clear: a
    // user quicker than that keeps what they typed. The typing is sent in the same task as the click, so the
    // URL always catches up after it.
    const typeRightAfter = (click: string, label: string, text: string) =>
      page.evaluate(
        async ([click, label, text]) => {
          const target = [...document.querySelectorAll<HTMLElement>('[role="option"], button')].find((el) => el.textContent === click)!;
          target.click();
          for (let i = 0; i < 5; i++) await Promise.resolve();
          const input = [...document.querySelectorAll('label')].find((l) => l.textContent === label)!.control as HTMLInputElement;
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
          input.dispatchEvent(new Event('input', { bubbles: true }));
        },
        [click, label, text],
      );

    it('keeps a version typed right after picking a platform, and applies it with Enter', async () => {
      await page.getByLabel('Platform').click();
      await page.getByRole('option', { name: 'tizen' }).waitFor();
      await typeRightAfter('tizen', 'Version', '1.1');
      await page.waitForURL(/ownPlatform=tizen/);
      await rowOf('zeta-tizen-1.0.0').waitFor();
      expect(await page.getByLabel('Version').inputValue()).toBe('1.1');
      await page.getByLabel('Version').press('Enter');
      await rowOf('zeta-tizen-1.0.0').waitFor({ state: 'detached' });
      expect(await rows().count()).toBe(2);
    });

    it('leaves every filter empty after Clear, keeps a version typed right after it, and empties the box on a menu link', async () => {
      await typeRightAfter('Clear', 'Version', '1.0');
      await page.waitForURL((url) => url.search === '');
      await rowOf('zeta-tizen-1.0.0').waitFor();
      expect(await page.getByLabel('Whitelabel').inputValue()).toBe('');
      expect(await page.getByLabel('Platform').inputValue()).toBe('');
      expect(await page.getByLabel('Version').inputValue()).toBe('1.0');
      expect(await rows().count()).toBe(3);
      await page.getByRole('button', { name: 'Delete By Filter' }).click();
      expect(await dialog().getByTestId('confirm-detail').innerText()).toBe('1 build matches Version = 1.0.');
      await dialog().getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(/\?ownVersion=1\.0$/);
      // The menu's link changes the URL from outside the box: the box shows the filters it brings (none).
      await page.locator('nav[aria-label="Main menu"]').getByRole('button', { name: /^(Combinations|More)$/ }).first().click();
      await page.getByRole('menuitem', { name: 'Builds' }).click();
      await page.waitForURL((url) => url.search === '');
      await expect.poll(() => page.getByLabel('Version').inputValue()).toBe('');
      await rowOf('zeta-tizen-1.0.0').waitFor();
    });

    it('empties a lookup filter on Clear even when its options arrive after it', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/v1\/admin\/platform\/get/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${server.url}/builds?ownPlatform=tizen&ownVersion=1.1`);
      await rowOf('zeta-tizen-1.0.0').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Clear' }).click();
      await rowOf('zeta-tizen-1.0.0').waitFor();
      release();
      await page.waitForResponse(/\/v1\/admin\/platform\/get/);
      await page.unrouteAll();
      await page.getByLabel('Platform').click();
      await page.getByRole('option', { name: 'tizen' }).waitFor();
      await page.keyboard.press('Escape');
      expect(await page.getByLabel('Platform').inputValue()).toBe('');
      expect(await page.getByLabel('Version').inputValue()).toBe('');
      expect(page.url()).toBe(`${server.url}/builds`);
      expect(await rows().count()).toBe(3);
    });
  });

  describe('combinations for a tester', () => {
    let testerPage: Page;
    beforeAll(async () => {
      testerPage = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
      await loginThroughScreen(testerPage, server, TESTER.email, TESTER.password);
    });

    it('offers a tester no Add and no office-IP box while no office IP is known', async () => {
      await testerPage.goto(`${server.url}/combinations`);
      await testerPage.getByRole('heading', { name: /Combinations/ }).waitFor();
      await testerPage.getByText('No records').waitFor();
      expect(await testerPage.getByRole('button', { name: 'Add' }).count()).toBe(0);
      expect(await testerPage.getByTestId('office-ip-box').count()).toBe(0);
    });

    it('lets an admin set the office IP in the box on the Combinations screen', async () => {
      await page.goto(`${server.url}/combinations`);
      const box = page.getByTestId('office-ip-box');
      await box.getByLabel('Office IP').fill('10.20.30.40');
      await box.getByRole('button', { name: 'Update office IP' }).click();
      await page.getByText('Office IP update request status').waitFor();
      expect((await server.api('GET', '/v1/admin/officeIp/get', {}, token)).data.ip).toBe('10.20.30.40');
    });

    it('prefills a tester\'s new combination with the office IP in a disabled field, and saves it', async () => {
      await testerPage.reload();
      await testerPage.getByRole('button', { name: 'Add' }).click();
      const form = testerPage.getByRole('dialog');
      const ip = form.getByLabel('IP address');
      await ip.waitFor();
      expect(await ip.inputValue()).toBe('10.20.30.40');
      expect(await ip.isDisabled()).toBe(true);
      const ok = form.getByRole('button', { name: 'OK' });
      expect(await ok.isDisabled()).toBe(true);
      const build = (await server.api('GET', '/v1/admin/build/get', { ownWhitelabel: 'zeta', ownVersion: '1.1.0' }, token)).data.rows[0];
      await form.getByLabel('Build ID').fill(String(build.id));
      await chooseOption(testerPage, form.getByLabel('Whitelabel ID'), /zeta/);
      await shot(testerPage, 'combination-form-tester');
      await ok.click();
      await testerPage.getByText('Add request status').waitFor();
      const row = testerPage.locator('.MuiDataGrid-row', { hasText: 'zeta-tizen-1.1.0' });
      await row.waitFor();
      expect(await row.textContent()).toContain('10.20.30.40');
      expect(await testerPage.getByTestId('office-ip-box').count()).toBe(0);
      await shot(testerPage, 'combinations-tester');
    });

    it('shows the admin the names of whitelabel, platform and build, and published rows in green', async () => {
      const build = (await server.api('GET', '/v1/admin/build/get', { ownWhitelabel: 'zeta', ownVersion: '1.0.0' }, token)).data.rows[0];
      await server.api('GET', '/v1/admin/combination/add', {
        whitelabelId: ids.zeta, platformId: ids.tizen, buildId: build.id, isPublished: true,
        customBuildUrls: JSON.stringify(['https://cdn.example.com/zeta/a-rather-long-path/to/the/custom/build/app.js']),
      }, token);
      await page.reload();
      const row = rowOf('zeta-tizen-1.0.0');
      await row.waitFor();
      // Custom URLs gives way to Published at this width (priority 5): shown again through the column chooser.
      await showColumn(page, 'Custom URLs');
      expect(await row.textContent()).toContain(`${ids.zeta} zeta`);
      expect(await row.textContent()).toContain(`${ids.tizen} tizen`);
      expect(await row.textContent()).toContain('["https://cdn.example.com/zeta/a-rather-long-path/…');
      expect(await row.getAttribute('class')).toContain('row-tone-success');
      await shot(page, 'combinations');
    });

    it('deletes on Delete All Builds every build no combination uses, and names the kept ones in the notice', async () => {
      await page.goto(`${server.url}/builds`);
      await rowOf('acme-tizen-1.1.0-1080p').waitFor();
      await page.getByRole('button', { name: 'Delete All Builds' }).click();
      await dialog().getByText('Delete all builds?').waitFor();
      await dialog().getByRole('button', { name: 'OK' }).click();
      const notice = page.getByTestId('notice').filter({ hasText: 'Delete All Builds request status' });
      await notice.getByText('Success').waitFor();
      expect(await notice.getByTestId('notice-detail').innerText()).toBe(
        'Deleted 1 build; kept 2 used by combinations: zeta-tizen-1.0.0-1080p, zeta-tizen-1.1.0-1080p',
      );
      await rowOf('acme-tizen-1.1.0-1080p').waitFor({ state: 'detached' });
      expect(await rows().count()).toBe(2);
      await shot(page, 'builds-delete-all-kept');
    });
  });

  describe('localisations', () => {
    const file = join(tmpdir(), 'e2e-translations.json');
    const next = join(tmpdir(), 'e2e-translations-2.json');
    beforeAll(() => {
      writeFileSync(file, JSON.stringify({ ru: { hello: 'Привет' }, en: { hello: 'Hello' } }));
      writeFileSync(next, JSON.stringify({ ru: { hello: 'Здравствуйте' } }));
    });

    it('keeps OK disabled until a whitelabel and a translations file are given, then adds the record', async () => {
      await page.goto(`${server.url}/localisations`);
      await page.getByRole('button', { name: 'Add' }).click();
      const ok = dialog().getByRole('button', { name: 'OK' });
      expect(await ok.isDisabled()).toBe(true);
      await chooseOption(page, dialog().getByLabel('Whitelabel ID'), /acme/);
      expect(await ok.isDisabled()).toBe(true);
      await dialog().locator('input[type=file]').setInputFiles(file);
      expect(await ok.isDisabled()).toBe(false);
      await ok.click();
      await page.getByText('Add request status').waitFor();
      await rowOf('acme').waitFor();
      expect(await rowOf('acme').textContent()).toContain('Привет');
      await shot(page, 'localisations');
    });

    it('warns on edit that the upload overwrites the whitelabel\'s translations, with the whitelabel locked', async () => {
      await rowOf('acme').getByRole('button', { name: 'Edit' }).click();
      await dialog().getByText('This action overwrites the translations of this whitelabel.').waitFor();
      expect(await dialog().getByLabel('Whitelabel ID').isDisabled()).toBe(true);
      const ok = dialog().getByRole('button', { name: 'OK' });
      expect(await ok.isDisabled()).toBe(true);
      await shot(page, 'localisation-edit-warning');
      await dialog().locator('input[type=file]').setInputFiles(next);
      await ok.click();
      await page.getByText('Edit request status').waitFor();
      await rowOf('Здравствуйте').waitFor();
    });

    it('shows the translations as a JSON tree and deletes the record after asking Delete this item? with the record named', async () => {
      await rowOf('acme').getByRole('button', { name: /^Show / }).click();
      await dialog().getByRole('button', { name: /ru:/ }).click();
      await dialog().getByText('"Здравствуйте"').waitFor();
      await shot(page, 'localisation-json-tree');
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });
      await rowOf('acme').getByRole('button', { name: 'Delete' }).click();
      await dialog().getByText('Delete this item?').waitFor();
      await dialog().getByText(/^Record: "#\d+"$/).waitFor();
      await dialog().getByRole('button', { name: 'OK' }).click();
      await page.getByText('No records').waitFor();
    });
  });

  it('draws the other catalogue screens with their rows', async () => {
    const config = new FormData();
    config.append('whitelabelId', String(ids.zeta));
    config.append('isActive', 'true');
    config.append('config', new Blob([JSON.stringify({ theme: 'dark', features: { epg: true } })], { type: 'application/json' }), 'config.json');
    await fetch(`${server.url}/v1/admin/wlConfig/add`, { method: 'POST', headers: { Authorization: token }, body: config });
    await server.api('GET', '/v1/admin/versionsInStoreOnTest/add', { whitelabelId: ids.acme, platformId: ids.tizen, appVersion: '1.20.34', isPublished: true }, token);
    await server.api('GET', '/v1/admin/installation/add', { name: '6f1c2a9e-8a43-4d1e-9a57-0c7b8f1d2e3a', userId: 'user-17', whitelabelId: ids.acme }, token);
    await server.api('POST', '/v1/admin/tech-support/add', { whitelabelId: ids.acme, url: 'https://help.acme.example.com/' }, token);
    for (const [route, text] of [
      ['/appVersionsOnTest', '1.20.34'],
      ['/installations', 'user-17'],
      ['/techSupport', 'https://help.acme.example.com/'],
      ['/wlConfig', 'zeta'],
    ]) {
      await page.goto(`${server.url}${route}`);
      await rowOf(text).waitFor();
      await shot(page, route.slice(1));
    }
    expect(await rowOf('zeta').textContent()).toContain('"theme":"dark"');
  });
});
