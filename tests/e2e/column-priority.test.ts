// The columns a screen is used for (list.columns[].priority 1: the A/B Active switch, Combinations' Published,
// Builds' Available) are in view without scrolling at 1024 and 1440 px: lower-priority columns give way, and stay
// in the column chooser.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWhitelabel, dropBuild, insertRows, shot } from './catalogue-helpers';
import { launchBrowser, loginThroughScreen, type RunningServer, startServer } from './harness';

const SCREENS = [
  { route: '/abtesting', title: 'A/B experiments', key: 'Active' },
  { route: '/combinations', title: 'Combinations', key: 'Published' },
  { route: '/builds', title: 'Builds', key: 'Available' },
];

/** Where the cell of the first row under the header `name` is drawn, beside the grid's visible area and scroll. */
async function keyCell(page: Page, name: string) {
  const header = page.getByRole('columnheader', { name, exact: true });
  await header.waitFor();
  const field = await header.getAttribute('data-field');
  const cell = page.locator(`.MuiDataGrid-row[data-rowindex="0"] [role="gridcell"][data-field="${field}"]`);
  await cell.waitFor();
  const scroller = page.locator('.MuiDataGrid-virtualScroller').first();
  return { cell: (await cell.boundingBox())!, view: (await scroller.boundingBox())!, scrollLeft: await scroller.evaluate((el) => el.scrollLeft) };
}

describe('key columns at 1024 and 1440 px', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    const wl = await addWhitelabel(server, token, 'acme-with-a-long-whitelabel-name');
    dropBuild(server, ['acme-with-a-long-whitelabel-name', 'tizen', '1.0.0', '1080p']);
    await server.api('GET', '/v1/admin/build/reload', {}, token);
    const now = new Date().toISOString();
    insertRows(server, 'platforms', [{ name: 'tizen', maxVersion: '01.20.33', createdAt: now, updatedAt: now }]);
    insertRows(server, 'combinations', [
      {
        whitelabelId: wl,
        platformId: 1,
        buildId: 1,
        appInstallId: 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        ipAddress: '192.168.100.200/32',
        customBuildUrls: JSON.stringify(['https://cdn.example.com/builds/acme/tizen/1.0.0/app.js']),
        forceLocalBuild: 0,
        isPublished: 1,
        createdAt: now,
        updatedAt: now,
      },
    ]);
    insertRows(server, 'experiments', [
      {
        whitelabelId: wl,
        platformIds: '[1]',
        modelNames: JSON.stringify(['LG-OLED55C1', 'Samsung-QE55Q80']),
        recordsCount: 1000,
        isActive: 0,
        isCollecting: 0,
        isRandomSaveEnable: 0,
        probability: 50,
        versionsDeploymentSettings: JSON.stringify({ A: { version: '1.0.0' }, B: { version: '1.1.0' } }),
        createdAt: now,
        updatedAt: now,
      },
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [1024, 1440]) {
    it(`shows the Active, Published and Available cells inside the grid's visible area at ${width} px, without scrolling`, async () => {
      const page = await (await browser.newContext({ viewport: { width, height: 800 } })).newPage();
      await loginThroughScreen(page, server);
      for (const { route, title, key } of SCREENS) {
        await page.goto(`${server.url}${route}`);
        await page.getByRole('heading', { name: title }).waitFor();
        const { cell, view, scrollLeft } = await keyCell(page, key);
        expect(scrollLeft, `${route} scrolled`).toBe(0);
        expect(cell.x, `${route} ${key} cell starts in view`).toBeGreaterThanOrEqual(view.x);
        expect(cell.x + cell.width, `${route} ${key} cell ends in view`).toBeLessThanOrEqual(view.x + view.width + 1);
        await shot(page, `columns-${route.slice(1)}-${width}`);
      }
      await page.close();
    });
  }

  it('keeps a column that gave way in the column chooser, where showing it again brings it back', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1024, height: 800 } })).newPage();
    await loginThroughScreen(page, server);
    await page.goto(`${server.url}/combinations`);
    await page.getByRole('columnheader', { name: 'Published', exact: true }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Custom URLs', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: /columns/i }).first().click();
    const choice = page.getByRole('checkbox', { name: 'Custom URLs' });
    expect(await choice.isChecked()).toBe(false);
    await choice.click();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: 'Custom URLs', exact: true }).waitFor();
    await page.close();
  });
});
