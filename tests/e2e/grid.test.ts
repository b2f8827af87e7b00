// The grid as users expect it: sorting by a header click (the same URL state as the Sort by select), a column
// chooser, widths and density remembered per user, and the keyboard shortcuts listed on `?`.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

describe('the grid of every list', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    for (const [name, maxVersion] of [
      ['beta', '2.0.0'],
      ['alpha', '3.0.0'],
      ['gamma', '1.0.0'],
    ]) {
      await server.api('GET', '/v1/admin/platform/add', { name, maxVersion }, token);
    }
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const header = (name: string) =>
    page.getByRole('columnheader').filter({ has: page.locator('.MuiDataGrid-columnHeaderTitle', { hasText: new RegExp(`^${name}$`) }) });
  const names = () => page.locator('.MuiDataGrid-row [data-colindex="2"]').allInnerTexts();
  const sortParams = () => {
    const search = new URL(page.url()).searchParams;
    return { sort: search.get('sort'), order: search.get('order') };
  };

  it('sorts by a header click through the URL, like the Sort by select: asc, desc, then none', async () => {
    await page.goto(`${server.url}/platforms`);
    await page.getByTestId('list-count').filter({ hasText: '3 total' }).waitFor();
    await header('Name').locator('.MuiDataGrid-columnHeaderTitle').click();
    await page.waitForURL(/sort=name/);
    expect(sortParams()).toEqual({ sort: 'name', order: null });
    await expect.poll(() => page.getByTestId('sort-by').inputValue()).toBe('name');
    await page.waitForFunction(() => document.querySelector('.MuiDataGrid-row [data-colindex="2"]')?.textContent === 'alpha');
    expect(await names()).toEqual(['alpha', 'beta', 'gamma']);
    expect(await header('Name').getAttribute('aria-sort')).toBe('ascending');

    await header('Name').locator('.MuiDataGrid-columnHeaderTitle').click();
    await page.waitForURL(/order=desc/);
    await page.waitForFunction(() => document.querySelector('.MuiDataGrid-row [data-colindex="2"]')?.textContent === 'gamma');
    expect(await names()).toEqual(['gamma', 'beta', 'alpha']);

    await header('Name').locator('.MuiDataGrid-columnHeaderTitle').click();
    await page.waitForURL((url) => !url.searchParams.has('sort'));
    await expect.poll(() => page.getByTestId('sort-by').inputValue()).toBe('none');

    // The select's choice shows on the header too.
    await page.goto(`${server.url}/platforms?sort=maxVersion&order=desc`);
    await page.getByTestId('list-count').filter({ hasText: '3 total' }).waitFor();
    expect(await header('Max version').getAttribute('aria-sort')).toBe('descending');
  });

  it('offers header sorting only on the columns the manifest lets the server sort', async () => {
    await page.goto(`${server.url}/testerIP`);
    await header('Description').waitFor();
    await header('Description').locator('.MuiDataGrid-columnHeaderTitle').click();
    await header('Vendor').locator('.MuiDataGrid-columnHeaderTitle').click();
    await page.waitForURL(/sort=vendor/);
    expect(sortParams().sort).toBe('vendor');
    expect(await header('Description').getAttribute('class')).not.toContain('sortable');
  });

  it('hides a column with the column chooser, keeps dragged widths and the density after a reload', async () => {
    await page.goto(`${server.url}/platforms`);
    await page.getByTestId('list-count').filter({ hasText: '3 total' }).waitFor();
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Created' }).uncheck();
    await header('Created').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.getByRole('checkbox', { name: 'Created' }).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Density' }).click();
    await page.getByRole('menuitem', { name: 'Compact' }).click();
    // The menu's invisible backdrop fades out for a moment and would take the drag below.
    await page.locator('.MuiBackdrop-root').waitFor({ state: 'detached' });
    await page.waitForFunction(() => (document.querySelector('.MuiDataGrid-row') as HTMLElement | null)?.offsetHeight === 36);

    const before = (await header('Name').boundingBox())!.width;
    // Drag the column's resize handle 120 px to the right.
    const handle = (await header('Name').locator('.MuiDataGrid-columnSeparator').boundingBox())!;
    const y = handle.y + handle.height / 2;
    await page.mouse.move(handle.x + handle.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2 + 60, y, { steps: 4 });
    await page.mouse.move(handle.x + handle.width / 2 + 120, y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => (await header('Name').boundingBox())!.width).toBeGreaterThan(before + 60);

    const widthAfterDrag = (await header('Name').boundingBox())!.width;

    await page.reload();
    await page.getByTestId('list-count').filter({ hasText: '3 total' }).waitFor();
    await header('Name').waitFor();
    expect(await header('Created').count()).toBe(0);
    expect(await header('Updated').count()).toBe(1);
    const widthAfterReload = (await header('Name').boundingBox())!.width;
    expect(Math.abs(widthAfterReload - widthAfterDrag)).toBeLessThanOrEqual(1);
    expect(widthAfterReload).not.toBe(before);
    expect(await page.locator('.MuiDataGrid-row').first().evaluate((el) => (el as HTMLElement).offsetHeight)).toBe(36);

    // Another user of the same browser keeps their own grid.
    const token = await server.login();
    await server.api('GET', '/v1/admin/user/add', { email: 'other@example.com', password: 'other-password-1', role: 'developer' }, token);
    await page.getByRole('button', { name: 'Logout' }).click();
    await loginThroughScreen(page, server, 'other@example.com', 'other-password-1');
    await page.goto(`${server.url}/platforms`);
    await page.getByTestId('list-count').filter({ hasText: '3 total' }).waitFor();
    expect(await header('Created').count()).toBe(1);
    expect(await page.locator('.MuiDataGrid-row').first().evaluate((el) => (el as HTMLElement).offsetHeight)).toBe(52);
    await page.getByRole('button', { name: 'Logout' }).click();
    await loginThroughScreen(page, server);
  });

  it('answers the keyboard: / to the first filter, n to Add, Ctrl+Enter to OK, Esc to close, ? for the list', async () => {
    await page.goto(`${server.url}/platforms`);
    await page.getByTestId('list-count').filter({ hasText: '3 total' }).waitFor();
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.closest('[role=search]') !== null)).toBe(true);
    // Typing in the filter is text, not a shortcut.
    await page.keyboard.type('no');
    expect(await page.getByRole('search').getByLabel('Name').inputValue()).toBe('no');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('search').getByLabel('Name').fill('');

    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('n');
    const form = page.getByRole('dialog', { name: 'Add platform' });
    await form.waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });

    await page.keyboard.press('n');
    await form.getByLabel('Name').fill('delta');
    await form.getByRole('combobox', { name: /Max version/ }).fill('4.0.0');
    await page.keyboard.press('Control+Enter');
    await form.waitFor({ state: 'hidden' });
    await page.getByTestId('list-count').filter({ hasText: '4 total' }).waitFor();

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const keys of ['/', 'n', 'Esc', 'Ctrl+Enter', '?']) expect(await help.getByRole('cell', { name: keys, exact: true }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
  });

  it('opens nothing on n where the list has no Add (the users log)', async () => {
    await page.goto(`${server.url}/userslogs`);
    await page.getByRole('grid').waitFor();
    await page.locator('.MuiDataGrid-row').first().waitFor();
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('n');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
  });
});
