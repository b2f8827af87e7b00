// The conventions of the admin tools staff compare the panel with (react-admin, Refine, Directus; issue 35 item 3):
// undo after a delete, a confirmation that names the record and starts on Cancel, empty and filtered-empty lists,
// a list's view kept, progress and Cancel on the CSV export and the IP import, dates with their zone, polite
// notices, duplicates in an IP import named. DOCS_SHOTS=1 saves the README's screenshots to docs/screenshots/.
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

/** The panel's Undo window (src/core/list/undoable-delete.ts UNDO_MS) and a margin. */
const UNDO_WAIT_MS = 5_000 + 1_500;
const SHOTS = resolve(import.meta.dirname, '../../docs/screenshots');

describe('the conventions of the admin tools staff know', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    token = await server.login();
    for (const name of ['Tizen', 'webOS', 'Android TV']) await server.api('GET', '/v1/admin/platform/add', { name, maxVersion: '1.0.0' }, token);
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const rowOf = (name: string) => page.locator('.MuiDataGrid-row', { hasText: name });
  const platformNames = async () => ((await server.api('GET', '/v1/admin/platform/get', { pageSize: 100 }, token)).data.rows as { name: string }[]).map((r) => r.name);

  /** Saves the state on screen at 1024 and 1440 px wide as docs/screenshots/<name>-<width>.png (DOCS_SHOTS=1). */
  async function docShot(name: string) {
    if (!process.env.DOCS_SHOTS) return;
    for (const width of [1024, 1440]) {
      await page.setViewportSize({ width, height: 760 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), animations: 'disabled' });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  it('asks "Delete this item?" naming Tizen, starting on Cancel, hides the row at once behind a polite Undo notice, and Undo keeps the record', async () => {
    await page.goto(`${server.url}/platforms`);
    await rowOf('Tizen').getByRole('button', { name: 'Delete' }).click();
    await dialog().getByText('Delete this item?').waitFor();
    await dialog().getByText('Record: "Tizen"').waitFor();
    // Enter out of habit cancels: the focus starts on Cancel, not on the red OK.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await dialog().getByRole('button', { name: 'OK' }).click();
    await rowOf('Tizen').waitFor({ state: 'detached' });
    // The counts leave out the row waiting for Undo, as the list does.
    await expect.poll(() => page.getByTestId('list-count').textContent()).toBe('2 total');
    const notice = page.getByTestId('notice').filter({ hasText: 'Deleted "Tizen"' });
    expect(await notice.getAttribute('role')).toBe('status');
    await docShot('undo-toast');
    await notice.getByRole('button', { name: 'Undo' }).click();
    await rowOf('Tizen').waitFor();
    expect(await page.getByTestId('list-count').textContent()).toBe('3 total');
    await page.waitForTimeout(UNDO_WAIT_MS);
    expect(await platformNames()).toContain('Tizen');
    await rowOf('Tizen').waitFor();
  }, 40_000);

  it('sends the delete once its Undo notice closes, with a polite success notice', async () => {
    await rowOf('webOS').getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'OK' }).click();
    await rowOf('webOS').waitFor({ state: 'detached' });
    expect(await platformNames()).toContain('webOS');
    const success = page.getByTestId('notice').filter({ hasText: 'Delete request status' }).filter({ hasText: 'Success' });
    await success.waitFor({ timeout: UNDO_WAIT_MS + 5_000 });
    expect(await success.getAttribute('role')).toBe('status');
    expect(await platformNames()).not.toContain('webOS');
  });

  it('still sends a delete waiting for Undo when the user leaves the page', async () => {
    await page.goto(`${server.url}/platforms`);
    await rowOf('Android TV').getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'OK' }).click();
    await rowOf('Android TV').waitFor({ state: 'detached' });
    await page.goto('about:blank');
    await expect.poll(platformNames, { timeout: 5_000 }).not.toContain('Android TV');
  });

  it('reports a failure as an alert', async () => {
    await page.goto(`${server.url}/platforms`);
    await page.getByRole('button', { name: 'Add' }).click();
    await dialog().getByLabel('Name').fill('Tizen');
    await dialog().getByLabel('Max version').fill('1.2.3');
    await dialog().getByRole('button', { name: 'OK' }).click();
    const failed = page.getByTestId('notice').filter({ hasText: /Add request status\s*Error/ });
    await failed.waitFor();
    expect(await failed.getAttribute('role')).toBe('alert');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  });

  it('says a list filtered to nothing is filtered, and Clear filters brings the rows back', async () => {
    await page.goto(`${server.url}/platforms`);
    await rowOf('Tizen').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('nosuch');
    await page.getByRole('textbox', { name: 'Name' }).press('Enter');
    await page.getByText('No records match the filters').waitFor();
    await docShot('filtered-empty');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await rowOf('Tizen').waitFor();
    expect(new URL(page.url()).search).toBe('');
  });

  it('says an empty list is empty, without offering to clear filters', async () => {
    await page.goto(`${server.url}/testerIP`);
    await page.getByText('No records', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Clear filters' }).count()).toBe(0);
  });

  it("shows a list as the user left it (page size, sort, filter) when they come back by the menu, and another user's own way", async () => {
    await page.goto(`${server.url}/platforms?size=50&sort=name&order=desc&name=i`);
    await rowOf('Tizen').waitFor();
    await page.goto(`${server.url}/testerIP`);
    await page.getByText('No records', { exact: true }).waitFor();
    await page.goto(`${server.url}/platforms`);
    // The view is put back once the panel has started and drawn the screen: seconds on a busy machine.
    await rowOf('Tizen').waitFor();
    await expect.poll(() => new URL(page.url()).search, { timeout: 10_000 }).toBe('?size=50&sort=name&order=desc&name=i');
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('i');
    // Another staff member in the same browser has their own views.
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('panel.list:')));
    expect(stored).toEqual(['panel.list:admin@example.com:platform']);
  });

  it('shows a date with its zone, and the time in the user\'s own zone on hover', async () => {
    await page.goto(`${server.url}/platforms`);
    const cell = rowOf('Tizen').locator('[data-local-time]').first();
    expect(await cell.innerText()).toMatch(/^\d+\/\d+\/\d{4}, \d+:\d\d:\d\d [AP]M UTC$/);
    expect(await cell.getAttribute('title')).toMatch(/\(.+\)$/);
  });

  it('shows the CSV export\'s rows as they arrive, with a Cancel that stops it', async () => {
    const ips = Array.from({ length: 200_000 }, (_, i) => ({ ip: `30.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, vendor: 'lg' }));
    const imported = await fetch(`${server.url}/v1/admin/testersIP/addArray`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ ips }) });
    expect((await imported.json()).result).toBe(true);
    await page.goto(`${server.url}/testerIP`);
    await rowOf('30.0.0.0/32').waitFor();
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const progress = page.getByTestId('export-cancel');
    await progress.filter({ hasText: /[1-9][\d,]* rows received/ }).waitFor();
    await progress.click();
    await page.getByTestId('notice').filter({ hasText: 'Export cancelled' }).waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();
    expect(downloads).toBe(0);
  }, 60_000);

  it('names the duplicates of an IP import as duplicates, and stores nothing of it', async () => {
    await page.goto(`${server.url}/testerIP`);
    await page.getByRole('button', { name: 'Import from file' }).click();
    await chooseOption(page, dialog().getByLabel('Vendor'), 'lg');
    await dialog().getByLabel('IP list file').setInputFiles({ name: 'dups.txt', mimeType: 'text/plain', buffer: Buffer.from('31.0.0.1\n31.0.0.2\n31.0.0.1\n30.0.0.5\n') });
    await dialog().getByText('4 addresses to add from dups.txt').waitFor();
    await dialog().getByRole('button', { name: 'OK' }).click();
    const duplicates = dialog().getByTestId('ip-import-duplicates');
    await duplicates.waitFor();
    expect(await duplicates.locator('li').allInnerTexts()).toEqual(['line 3: 31.0.0.1/32 repeats line 1', 'line 4: 30.0.0.5/32 is already in the list']);
    expect((await server.api('GET', '/v1/admin/testersIP/get', { ip: '31.0.0.' }, token)).data.count).toBe(0);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('shows an IP import in progress with its count and a Cancel; a cancelled import stores nothing', async () => {
    /** The import's rows, read straight from the database (the list's count stops at 10,000). */
    const stored = () => {
      const db = new Database(join(server.dataDir, 'panel.sqlite'), { readonly: true });
      try {
        return (db.prepare("select count(*) as n from tester_ips where ip like '32.%'").get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const lines = Array.from({ length: 150_000 }, (_, i) => `32.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    await page.goto(`${server.url}/testerIP`);
    await page.getByRole('button', { name: 'Import from file' }).click();
    await chooseOption(page, dialog().getByLabel('Vendor'), 'lg');
    await dialog().getByLabel('IP list file').setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) });
    await dialog().getByText('150,000 addresses to add from big.txt').waitFor();
    await dialog().getByRole('button', { name: 'OK' }).click();
    const progress = dialog().getByTestId('ip-import-progress');
    await progress.getByRole('status').filter({ hasText: 'Importing 150,000 addresses…' }).waitFor();
    await docShot('ip-import-progress');
    await progress.getByRole('button', { name: 'Cancel import' }).click();
    await page.getByTestId('notice').filter({ hasText: 'Cancelled; nothing was stored' }).waitFor();
    await progress.waitFor({ state: 'detached' });
    // The server has rolled the import back once a new write of the list goes through after it.
    await expect
      .poll(async () => (await server.api('GET', '/v1/admin/testersIP/add', { ip: '33.0.0.1', vendor: 'lg' }, token)).result, { timeout: 20_000 })
      .toBe(true);
    expect(stored()).toBe(0);
  }, 60_000);
});
