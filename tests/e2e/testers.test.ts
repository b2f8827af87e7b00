// Issue 5 in a real browser against the real server: the IP import, the tester-IP form, testers phones, the
// experiment form's rules, the Active switch while collecting, the users of a collection, goals, and the
// customercare home. Screenshots of every screen go to SHOTS_DIR when it is set.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWhitelabel, insertRows, shot as saveShot } from './catalogue-helpers';
import { ADMIN, chooseOption, launchBrowser, loginThroughScreen, type RunningServer, startServer } from './harness';

const TESTER = { email: 'tess@example.com', password: 'tester-password-1' };
const CARE = { email: 'carl@example.com', password: 'customercare-password-1' };

describe('issue 5 screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let whitelabelIds: number[];
  // Device-written records (app info, collection users) have no panel call: the test writes them like a device backend.
  const insert = (table: string, rows: Record<string, unknown>[]) => insertRows(server, table, rows);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    adminToken = await server.login();
    for (const [user, role] of [[TESTER, 'tester'], [CARE, 'customercare']] as const) {
      const made = await server.api('GET', '/v1/admin/user/add', { ...user, role }, adminToken);
      if (!made.result) throw new Error(made.message);
    }
    whitelabelIds = [await addWhitelabel(server, adminToken, 'aurora'), await addWhitelabel(server, adminToken, 'nordtv')];
    for (const [name, maxVersion] of [['tizen', '10.0.0'], ['webos', '6.0.0']]) {
      await server.api('GET', '/v1/admin/platform/add', { name, maxVersion }, adminToken);
    }
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const rowOf = (text: string) => page.locator('.MuiDataGrid-row', { hasText: text });
  const shot = (name: string) => saveShot(page, name);
  const listCount = async () => (await page.getByTestId('list-count').textContent())?.replace(/\D/g, '');
  /** A lookup is a searchable select when its entity can be listed, otherwise an id input. */
  async function chooseLookup(label: string, text: string) {
    const input = dialog().getByLabel(new RegExp(`^${label}\\W*$`));
    await input.fill(text);
    if ((await input.getAttribute('role')) === 'combobox') await page.getByRole('option', { name: new RegExp(text) }).first().click();
  }
  /** Starts each role's part from a logged-out browser, whatever the part before it left behind. */
  async function loginAs(email: string, password: string) {
    await page.goto(`${server.url}/login`);
    await page.evaluate(() => localStorage.clear());
    await loginThroughScreen(page, server, email, password);
  }
  const file = (name: string, text: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

  describe('as a tester', () => {
    beforeAll(async () => {
      await loginAs(TESTER.email, TESTER.password);
    });

    it('lands on the tester IPs and imports a file: vendor first, ranges and wildcards expanded, a preview, then one call', async () => {
      await page.getByRole('heading', { name: /Tester IP addresses/ }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/testerIP');
      await page.getByRole('button', { name: 'Import from file' }).click();
      const ok = dialog().getByRole('button', { name: 'OK' });
      expect(await ok.isDisabled()).toBe(true);
      expect(await dialog().getByRole('button', { name: 'Choose a file' }).getAttribute('aria-disabled')).toBe('true');
      await chooseOption(page, dialog().getByLabel('Vendor'), 'samsung');
      await dialog().getByLabel('IP list file').setInputFiles(file('empty.txt', '\n  \n'));
      await dialog().getByText('0 addresses to add from empty.txt').waitFor();
      expect(await ok.isDisabled()).toBe(true);
      await dialog().getByLabel('IP list file').setInputFiles(file('ips.txt', '10.0.0.5~10.0.0.20\n\n1.2.3.4\n9.9.9.*\n5.6.7.0/24\n'));
      await dialog().getByText('15 addresses to add from ips.txt').waitFor();
      const preview = await dialog().getByTestId('ip-import-preview').locator('pre').textContent();
      expect(preview?.split('\n')).toEqual([
        '10.0.0.5/32', '10.0.0.6/31', '10.0.0.8/29', '10.0.0.16/30', '10.0.0.20/32', '1.2.3.4/32',
        '9.9.9.1/32', '9.9.9.2/31', '9.9.9.4/30', '9.9.9.8/29', '9.9.9.16/28', '9.9.9.32/27', '9.9.9.64/26', '9.9.9.128/25', '5.6.7.0/24',
      ]);
      await shot('tester-ip-import');
      expect(await ok.isDisabled()).toBe(false);
      await ok.click();
      await page.getByText('Import from file request status').waitFor();
      await dialog().waitFor({ state: 'detached' });
      await rowOf('10.0.0.16/30').waitFor();
      expect(await rowOf('10.0.0.16/30').textContent()).toContain('samsung');
      expect(await listCount()).toBe('15');
    });

    it('names the garbage lines of a file with their line numbers, and on OK imports the good lines', async () => {
      await page.getByRole('button', { name: 'Import from file' }).click();
      await chooseOption(page, dialog().getByLabel('Vendor'), 'lg');
      await dialog().getByLabel('IP list file').setInputFiles(file('bad.txt', '1.1.1.1\n256.1.1.1\nhello\n1.2.3.4/33\n7.7.7.7/24\n'));
      const problems = dialog().getByTestId('ip-import-problems');
      await problems.waitFor();
      const text = await problems.textContent();
      for (const line of ['line 2: 256.1.1.1', 'line 3: hello', 'line 4: 1.2.3.4/33']) expect(text).toContain(line);
      expect(text).toContain('3 lines are not an address and will be skipped; OK imports the other lines');
      await dialog().getByText('2 addresses to add from bad.txt').waitFor();
      await shot('tester-ip-import-bad-lines');
      const ok = dialog().getByRole('button', { name: 'OK' });
      expect(await ok.isDisabled()).toBe(false);
      await ok.click();
      await dialog().waitFor({ state: 'detached' });
      await page.getByTestId('list-count').filter({ hasText: /^17 total$/ }).waitFor();
      await page.getByRole('textbox', { name: 'IP' }).fill('.1.1.1/');
      await page.getByRole('textbox', { name: 'IP' }).press('Enter');
      await page.getByTestId('list-count').filter({ hasText: /^1 total$/ }).waitFor();
      expect(await rowOf('1.1.1.1/32').textContent()).toContain('lg');
    });

    it('imports a 100,000-line file while the modal keeps answering', async () => {
      const lines = Array.from({ length: 100_000 }, (_, i) => `11.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      await page.getByRole('button', { name: 'Import from file' }).click();
      await chooseOption(page, dialog().getByLabel('Vendor'), 'lg');
      await dialog().getByLabel('IP list file').setInputFiles(file('big.txt', lines.join('\n')));
      // The vendor select still opens while the file is parsed off the main thread.
      await chooseOption(page, dialog().getByLabel('Vendor'), 'lg');
      await dialog().getByText('100,000 addresses to add from big.txt').waitFor();
      expect(await dialog().getByTestId('ip-import-preview').textContent()).toContain('… and 99,800 more');
      await dialog().getByRole('button', { name: 'OK' }).click();
      await dialog().waitFor({ state: 'detached', timeout: 60_000 });
      await page.getByRole('textbox', { name: 'IP' }).fill('11.');
      await page.getByRole('textbox', { name: 'IP' }).press('Enter');
      // 100,000 rows: the list counts 10,000 exactly and says there are more.
      await page.getByText('10,000+ total').waitFor();
    });

    it('adds an address through the form: OK disabled for a bad address, /32 added to a bare one', async () => {
      await page.goto(`${server.url}/testerIP`);
      await page.getByRole('button', { name: 'Add' }).click();
      const ok = dialog().getByRole('button', { name: 'OK' });
      await chooseOption(page, dialog().getByLabel('Vendor'), 'custom');
      const ip = dialog().getByRole('textbox', { name: /^IP\W*$/ });
      for (const bad of ['256.1.1.1', '1.2.3.4/33', '1.2.3']) {
        await ip.fill(bad);
        await dialog().getByText('a.b.c.d (each part 0-255)').waitFor();
      }
      await ip.fill('203.0.113.77');
      await dialog().getByLabel('Description').click();
      expect(await ip.inputValue()).toBe('203.0.113.77/32');
      await shot('tester-ip-form');
      expect(await ok.isDisabled()).toBe(false);
      await ok.click();
      await dialog().waitFor({ state: 'detached' });
      await page.getByRole('textbox', { name: 'IP' }).fill('203.0.113');
      await page.getByRole('textbox', { name: 'IP' }).press('Enter');
      await rowOf('203.0.113.77/32').waitFor();
      await shot('tester-ip-list');
    });

    it('asks to fill all fields, then loads the record of a whitelabel that already has one', async () => {
      await server.api('POST', '/v1/admin/testersPhones/add', { whitelabelId: whitelabelIds[1], phones: ['+111', '+222'], isActive: false }, adminToken);
      await page.goto(`${server.url}/testersPhones`);
      await rowOf('+111').waitFor();
      expect(await page.getByText('Rows per page').count()).toBe(0);
      await page.getByRole('button', { name: 'Add' }).click();
      await dialog().getByRole('button', { name: 'OK' }).click();
      await dialog().getByText('Fill all fields').waitFor();
      await chooseLookup('Whitelabel id', String(whitelabelIds[1]));
      await expect.poll(() => dialog().getByRole('textbox', { name: 'Phone 2' }).inputValue()).toBe('+222');
      expect(await dialog().getByRole('textbox', { name: 'Phone 1' }).inputValue()).toBe('+111');
      expect(await dialog().getByLabel('Active').isChecked()).toBe(false);
      expect(await dialog().getByText('Fill all fields').count()).toBe(0);
      await dialog().getByRole('button', { name: 'Add phone' }).click();
      await dialog().getByRole('button', { name: 'OK' }).click();
      await dialog().getByText('Fill all fields').waitFor();
      await dialog().getByRole('button', { name: 'Remove phone 3' }).click();
      await dialog().getByRole('button', { name: 'Add phone' }).click();
      await dialog().getByRole('textbox', { name: 'Phone 3' }).fill('+333');
      await dialog().getByLabel('Active').check();
      await shot('testers-phones-form');
      await dialog().getByRole('button', { name: 'OK' }).click();
      await dialog().waitFor({ state: 'detached' });
      await rowOf('+333').waitFor();
      expect(await rowOf('+333').textContent()).toContain(`${whitelabelIds[1]} nordtv`);
      expect(await listCount()).toBe('1');
      await shot('testers-phones-list');
    });
  });

  describe('as an admin', () => {
    beforeAll(async () => {
      await loginAs(ADMIN.email, ADMIN.password);
    });

    it('keeps the experiment form closed to counts that do not add up, then saves it', async () => {
      await page.goto(`${server.url}/abtesting`);
      await page.getByRole('heading', { name: /A\/B experiments/ }).waitFor();
      await page.getByRole('button', { name: 'New Experiment' }).click();
      const ok = dialog().getByRole('button', { name: 'OK' });
      expect(await dialog().getByLabel('Collecting users').isChecked()).toBe(true);
      expect(await dialog().getByLabel('Random save').isChecked()).toBe(true);
      expect(await dialog().getByLabel('Probability').inputValue()).toBe('1');
      expect(await dialog().getByLabel('Active (switched from the list)').isDisabled()).toBe(true);
      expect(await ok.isDisabled()).toBe(true);
      await chooseLookup('Whitelabel', 'aurora');
      await chooseLookup('Platform 1', 'tizen');
      await dialog().getByRole('textbox', { name: 'Model name 1' }).fill('  UE55  ');
      await dialog().getByLabel('Records count').fill('10');
      await dialog().getByTestId('deployment-block-0').getByRole('spinbutton', { name: /^Count/ }).fill('4');
      await dialog().getByText('the counts add up to 4, not to the records count 10').waitFor();
      expect(await ok.isDisabled()).toBe(true);
      await dialog().getByRole('button', { name: 'Add group' }).click();
      await dialog().getByTestId('deployment-block-1').getByRole('spinbutton', { name: /^Count/ }).fill('7');
      await dialog().getByText('the counts add up to 11, not to the records count 10').waitFor();
      expect(await ok.isDisabled()).toBe(true);
      await dialog().getByTestId('deployment-block-1').getByRole('spinbutton', { name: /^Count/ }).fill('6');
      await dialog().getByTestId('deployment-block-0').getByLabel('Files for tizen').fill('bundleA.js');
      await dialog().getByTestId('deployment-block-0').getByLabel('Files for tizen').press('Enter');
      expect(await ok.isDisabled()).toBe(false);
      await dialog().getByLabel('Probability').fill('1.5');
      expect(await ok.isDisabled()).toBe(true);
      await dialog().getByLabel('Probability').fill('0.5');
      await dialog().getByLabel('Random save').uncheck();
      expect(await dialog().getByLabel('Probability').isDisabled()).toBe(true);
      await dialog().getByLabel('Random save').check();
      await dialog().getByRole('button', { name: 'Remove model name 1' }).click();
      expect(await dialog().getByRole('textbox', { name: 'Model name 1' }).inputValue()).toBe('');
      await dialog().getByRole('textbox', { name: 'Model name 1' }).fill('  UE55  ');
      await shot('experiment-form');
      expect(await ok.isDisabled()).toBe(false);
      await ok.click();
      await page.getByText('New Experiment request status').waitFor();
      await dialog().waitFor({ state: 'detached' });
      const stored = (await server.api('GET', '/v1/admin/abtesting/get', {}, adminToken)).data.rows[0];
      expect(stored).toMatchObject({ whitelabelId: whitelabelIds[0], modelNames: ['UE55'], recordsCount: 10, probability: 0.5, isCollecting: true });
      expect(stored.versionsDeploymentSettings[0]).toMatchObject({ count: 4, files: { tizen: ['bundleA.js'] } });
    });

    it('disables the Active switch while the experiment collects, and switches it once collecting stops', async () => {
      const id = (await server.api('GET', '/v1/admin/abtesting/get', {}, adminToken)).data.rows[0].id;
      const toggle = page.getByLabel(`Active ${id}`);
      await toggle.waitFor();
      expect(await toggle.isDisabled()).toBe(true);
      await shot('experiments-list');
      await rowOf('UE55').getByRole('button', { name: 'Edit' }).click();
      await dialog().getByLabel('Collecting users').uncheck();
      await dialog().getByRole('button', { name: 'OK' }).click();
      await dialog().waitFor({ state: 'detached' });
      await expect.poll(() => toggle.isDisabled()).toBe(false);
      await toggle.click();
      await expect.poll(() => toggle.isChecked()).toBe(true);
      expect((await server.api('GET', '/v1/admin/abtesting/get', {}, adminToken)).data.rows[0].isActive).toBe(true);
      await page.getByTestId('notice').filter({ hasText: 'Change active request status' }).getByText('Success').waitFor();
      expect(await page.getByText('Request request status').count()).toBe(0);
    });

    it('deletes a user by appInstallId from the toolbar modal, OK disabled until it is filled', async () => {
      const id = (await server.api('GET', '/v1/admin/abtesting/get', {}, adminToken)).data.rows[0].id;
      insert('experiment_users', ['u-a', 'u-b', 'u-c', 'u-d'].map((appInstallId, i) => ({ abtestingId: id, appInstallId, modelName: 'UE55', version: '1.0.0', whitelabel: 'acme', platform: i % 2 ? 'webos' : 'tizen', userId: `user-${i}` })));
      await page.getByRole('button', { name: 'Delete User by AppInstallId' }).click();
      const ok = dialog().getByRole('button', { name: 'OK' });
      expect(await ok.isDisabled()).toBe(true);
      await dialog().getByLabel('appInstallId').fill('u-d');
      await shot('experiments-delete-user');
      await ok.click();
      await page.getByText('Delete User by AppInstallId request status').waitFor();
      expect((await server.api('GET', '/v1/admin/abtesting/users', { id }, adminToken)).data.count).toBe(3);
    });

    it('opens the users of a collection from Info: heading, filters and delete after confirmation, from that collection only', async () => {
      const id = (await server.api('GET', '/v1/admin/abtesting/get', {}, adminToken)).data.rows[0].id;
      // A second experiment holding the same application: the row delete must leave it there.
      const db = new Database(join(server.dataDir, 'panel.sqlite'));
      let other: number;
      try {
        const { id: _id, ...copy } = db.prepare('select * from experiments where id = ?').get(id) as Record<string, unknown>;
        const columns = Object.keys(copy);
        const values = columns.map((c) => (c === 'modelNames' ? '["QE65"]' : copy[c]));
        other = Number(db.prepare(`insert into experiments (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`).run(...values).lastInsertRowid);
      } finally {
        db.close();
      }
      insert('experiment_users', [{ abtestingId: other, appInstallId: 'u-b', modelName: 'QE65', version: '1.0.0', whitelabel: 'acme', platform: 'webos', userId: 'user-1' }]);
      await page.goto(`${server.url}/abtesting`);
      await rowOf('UE55').getByRole('link', { name: 'Info' }).click();
      await page.getByRole('heading', { name: `Collection ${id}: 3 users` }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/abtesting/${id}`);
      await shot('experiment-users');
      await page.getByLabel('Platform').fill('webos');
      await page.getByLabel('Platform').press('Enter');
      // The heading counts the collection, not the filtered rows.
      await rowOf('u-a').waitFor({ state: 'detached' });
      expect(await page.locator('.MuiDataGrid-row').count()).toBe(1);
      await page.getByRole('heading', { name: `Collection ${id}: 3 users` }).waitFor();
      await rowOf('u-b').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Delete this item?').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
      await page.getByRole('heading', { name: `Collection ${id}: 2 users` }).waitFor();
      await page.getByText('No records').waitFor();
      expect((await server.api('GET', '/v1/admin/abtesting/users', { id }, adminToken)).data.count).toBe(2);
      expect((await server.api('GET', '/v1/admin/abtesting/users', { id: other, appInstallId: 'u-b' }, adminToken)).data.count).toBe(1);
    });

    it('adds a goal with OK disabled until the goal name is filled; page sizes 5 to 500', async () => {
      await page.goto(`${server.url}/goalsAbtesting`);
      await page.getByRole('button', { name: 'Add' }).click();
      const ok = dialog().getByRole('button', { name: 'OK' });
      expect(await ok.isDisabled()).toBe(true);
      await dialog().getByLabel('Goal name').fill('purchase');
      expect(await ok.isDisabled()).toBe(false);
      await ok.click();
      await rowOf('purchase').waitFor();
      await page.getByRole('combobox', { name: /Rows per page/ }).click();
      expect(await page.getByRole('option').allTextContents()).toEqual(['5', '20', '50', '100', '500']);
      await page.keyboard.press('Escape');
      await shot('goals');
    });

    it('lists achieved goals with their filters', async () => {
      insert('achieved_goals', [{ appInstallId: 'u-a', userId: 'user-0', goalName: 'purchase', goalDateTime: '2026-11-01T12:00:00.000Z', goalParams: '{"plan":"gold"}', abtestingId: 1, stuckingCount: 0 }]);
      await page.goto(`${server.url}/achievedGoals`);
      await rowOf('purchase').waitFor();
      await shot('achieved-goals');
    });
  });

  describe('as customercare', () => {
    it('lands on App Info, its only screen: filters, copy, delete one and remove all', async () => {
      insert('app_infos', ['anna', 'boris', 'carmen'].map((login, i) => ({ email: `${login}@example.com`, login, appInstallId: `inst-${login}`, version: '1.0.0', whitelabel: 'acme', platform: 'tizen', userId: `u${i}`, active: 'yes' })));
      await loginAs(CARE.email, CARE.password);
      await page.getByRole('heading', { name: /App Info/ }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/appinfo');
      await rowOf('inst-anna').waitFor();
      await page.getByLabel('Login').fill('bor');
      await page.getByLabel('Login').press('Enter');
      await expect.poll(listCount).toBe('1');
      await rowOf('inst-boris').getByRole('button', { name: /Copy/ }).waitFor();
      await page.getByRole('button', { name: 'Clear' }).click();
      await expect.poll(listCount).toBe('3');
      await shot('appinfo-customercare');
      await rowOf('inst-anna').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Record: "inst-anna"').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
      // The delete waits behind its Undo notice (UNDO_MS) before the server counts it.
      await expect.poll(listCount, { timeout: 15_000 }).toBe('2');
      await page.getByRole('button', { name: 'Remove All Items' }).click();
      await page.getByText('Sure you want to delete them all?').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
      await expect.poll(listCount, { timeout: 15_000 }).toBe('0');
    });
  });
});
