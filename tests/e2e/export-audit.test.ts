// What a reviewer does with the panel's records: exports a list's current view as CSV (every matching row in the
// screen's order, not only the page) and reads in the users log who changed a record, from what to what.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

describe('CSV export and the audit trail in the panel', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    token = await server.login();
    for (let n = 1; n <= 30; n++) {
      await server.api('GET', '/v1/admin/platform/add', { name: `exp-${String(n).padStart(2, '0')}`, maxVersion: '01.02.03' }, token);
    }
    await server.api('GET', '/v1/admin/platform/add', { name: 'other, "quoted"', maxVersion: '01.02.03' }, token);
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('Export CSV downloads every row of the filtered, sorted view, not only the page on screen', async () => {
    await page.goto(`${server.url}/platforms?name=exp&sort=name&order=desc`);
    await page.getByTestId('list-count').filter({ hasText: '30 total' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^platform-[\d-]+\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,Name,Max version,Created,Updated');
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(Array.from({ length: 30 }, (_, i) => `exp-${String(30 - i).padStart(2, '0')}`));
  });

  it("shows in the users log's details row what an edit changed, and filters the log by record id", async () => {
    const rows = (await server.api('GET', '/v1/admin/platform/get', { name: 'exp-07' }, token)).data.rows;
    const id = rows[0].id as number;
    expect((await server.api('GET', '/v1/admin/platform/edit', { id, name: 'exp-07-renamed', maxVersion: '02.00.00' }, token)).result).toBe(true);
    await page.goto(`${server.url}/userslogs`);
    await page.getByLabel('Record id').fill(String(id));
    await page.getByLabel('Entity').fill('platform');
    await page.getByLabel('Entity').press('Enter');
    await page.getByTestId('list-count').filter({ hasText: '2 total' }).waitFor();
    const url = new URL(page.url());
    expect([url.searchParams.get('entity'), url.searchParams.get('recordId')]).toEqual(['platform', String(id)]);
    const edit = page.locator('.MuiDataGrid-row', { hasText: 'edit' });
    await edit.getByRole('button', { name: 'Details' }).click();
    const changes = page.getByTestId('row-details').getByTestId('changes');
    await changes.waitFor();
    expect((await changes.locator('li').allInnerTexts())).toEqual(['Name: exp-07 → exp-07-renamed', 'Max version: 01.02.03 → 02.00.00']);
  });
});
