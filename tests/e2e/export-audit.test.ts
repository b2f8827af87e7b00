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
});
