import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, launchBrowser, loginThroughScreen, networkQuiet, type RunningServer, startServer } from './harness';

const ROWS = 520;

describe('the generic list screen with more than 500 rows', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    for (let start = 1; start <= ROWS; start += 40) {
      await Promise.all(
        Array.from({ length: Math.min(40, ROWS - start + 1) }, (_, k) => {
          const n = start + k;
          return server.api('GET', '/v1/admin/platform/add', { name: `platform-${String(n).padStart(3, '0')}`, maxVersion: `${n % 100}.${n % 7}.1` }, token);
        }),
      );
    }
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const grid = () => page.getByRole('grid');

  it('shows 20 rows by default, and 500 rows with page size 500', async () => {
    await page.goto(`${server.url}/platforms`);
    await page.getByTestId('list-count').filter({ hasText: `${ROWS} total` }).waitFor();
    expect(await grid().getAttribute('aria-rowcount')).toBe('21');

    await chooseOption(page, page.getByRole('combobox', { name: /Rows per page/ }), '500');
    await page.getByText(`1–500 of ${ROWS}`).waitFor();
    expect(new URL(page.url()).searchParams.get('size')).toBe('500');
    await page.waitForFunction(() => document.querySelector('[role=grid]')?.getAttribute('aria-rowcount') === '501');

    // The grid draws the last of the 500 rows when scrolled to the bottom: it did not cap the page at 100.
    await page.locator('.MuiDataGrid-virtualScroller').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.locator('.MuiDataGrid-row[data-rowindex="499"]').waitFor();
    // The row's cells may fill a frame after the row itself is placed. The platforms were added 40 at a time, so which
    // one is 500th in the list's order is what the list call answers (a loaded machine stores a batch out of order).
    const answer = await server.api('GET', '/v1/admin/platform/get', { page: 1, pageSize: 500 }, await server.login());
    const lastName = String(answer.data.rows[499].name);
    const last = page.locator('.MuiDataGrid-row[data-id]').filter({ hasText: lastName });
    await last.waitFor();
    expect(await last.count()).toBe(1);
  });

  it('keeps the view in the URL: a copied link reopens page 2 sorted by name desc, and Back returns', async () => {
    await page.goto(`${server.url}/platforms?page=2&size=50&sort=name&order=desc`);
    await page.getByText(`51–100 of ${ROWS}`).waitFor();
    await page.locator('.MuiDataGrid-row', { hasText: 'platform-470' }).waitFor();
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await page.getByText(`101–150 of ${ROWS}`).waitFor();
    await page.goBack();
    await page.getByText(`51–100 of ${ROWS}`).waitFor();
  });

  it("asks for the next page at the click, while the screen still shows the page before: one call, and that page's rows", async () => {
    await page.goto(`${server.url}/platforms?sort=name&size=50`);
    await page.getByText(`1–50 of ${ROWS}`).waitFor();
    await networkQuiet(page);
    // Each list call, with the page the address bar showed when it left.
    await page.evaluate(() => {
      const calls: { page: string | null; shown: string | null }[] = ((window as unknown as { listCalls: unknown[] }).listCalls = []) as never;
      const original = window.fetch;
      window.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        if (url.pathname === '/v1/admin/platform/get') calls.push({ page: url.searchParams.get('page'), shown: new URL(location.href).searchParams.get('page') });
        return original(input, init);
      };
    });
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await page.getByText(`51–100 of ${ROWS}`).waitFor();
    await page.locator('.MuiDataGrid-row', { hasText: 'platform-051' }).waitFor();
    await networkQuiet(page);
    expect(await page.evaluate(() => (window as unknown as { listCalls: unknown[] }).listCalls)).toEqual([{ page: '2', shown: null }]);
  });

  it("asks for a menu screen's first page at the click, while the screen before is still shown: one call, and that page's rows", async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Platforms' }).waitFor();
    await networkQuiet(page);
    // Each platform list call from here on, with the route the address bar showed when it left.
    await page.evaluate(() => {
      const calls: { page: string | null; shown: string }[] = ((window as unknown as { listCalls: unknown[] }).listCalls = []) as never;
      const original = window.fetch;
      window.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        if (url.pathname === '/v1/admin/platform/get') calls.push({ page: url.searchParams.get('page'), shown: location.pathname });
        return original(input, init);
      };
    });
    await page.getByRole('link', { name: 'Platforms' }).click();
    await page.getByTestId('list-count').filter({ hasText: `${ROWS} total` }).waitFor();
    await page.locator('.MuiDataGrid-row').first().waitFor();
    await networkQuiet(page);
    expect(await page.evaluate(() => (window as unknown as { listCalls: unknown[] }).listCalls)).toEqual([{ page: '1', shown: '/' }]);
  });

  it("keeps a page's rows under the grid's loading bar while the next page is on its way, and drops the bar with them", async () => {
    await page.goto(`${server.url}/platforms?sort=name&size=50`);
    await page.locator('.MuiDataGrid-row', { hasText: 'platform-001' }).waitFor();
    const bar = page.getByRole('grid').getByRole('progressbar');
    expect(await bar.count()).toBe(0);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/admin/platform/get?*', async (route) => {
      if (new URL(route.request().url()).searchParams.get('page') === '2') await held;
      await route.continue();
    });
    try {
      await page.getByRole('button', { name: 'Go to next page' }).click();
      await bar.waitFor();
      expect(await page.locator('.MuiDataGrid-row', { hasText: 'platform-001' }).isVisible()).toBe(true);
      release();
      await page.locator('.MuiDataGrid-row', { hasText: 'platform-051' }).waitFor();
      await expect.poll(() => bar.count()).toBe(0);
      expect(await page.locator('.MuiDataGrid-row', { hasText: 'platform-001' }).count()).toBe(0);
    } finally {
      release();
      await page.unroute('**/v1/admin/platform/get?*');
    }
  });

  it('filters by name on Enter, and Clear is enabled only while a filter is filled', async () => {
    await page.goto(`${server.url}/platforms`);
    const clear = page.getByRole('button', { name: 'Clear' });
    await page.getByTestId('list-count').filter({ hasText: `${ROWS} total` }).waitFor();
    expect(await clear.isDisabled()).toBe(true);
    await page.getByRole('search').getByLabel('Name').fill('platform-51');
    expect(await clear.isDisabled()).toBe(false);
    await page.getByRole('search').getByLabel('Name').press('Enter');
    await page.getByTestId('list-count').filter({ hasText: /^10 total$/ }).waitFor();
    await clear.click();
    await page.getByTestId('list-count').filter({ hasText: `${ROWS} total` }).waitFor();
    expect(await clear.isDisabled()).toBe(true);
  });

  it("draws a button press's ripple once ahead, unseen, when the rows are drawn: its styles are in before the first press, and nothing is left", async () => {
    // A new document with the session: no button was pressed on it.
    await page.goto(`${server.url}/platforms?sort=name`);
    await page.locator('.MuiDataGrid-row', { hasText: 'platform-001' }).waitFor();
    const rippleStyled = () =>
      page.evaluate(() => [...document.styleSheets].some((sheet) => [...sheet.cssRules].some((rule) => rule.cssText.includes('.MuiTouchRipple-rippleVisible'))));
    await expect.poll(rippleStyled, { timeout: 10_000 }).toBe(true);
    await networkQuiet(page);
    expect(await page.getByTestId('ripple-warm-up').count()).toBe(0);
    expect(await page.locator('.MuiTouchRipple-ripple').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    // The first press still draws its ripple, where it was pressed.
    const details = page.locator('.MuiDataGrid-row', { hasText: 'platform-001' }).getByRole('button', { name: 'Details' });
    const box = (await details.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await expect.poll(() => details.locator('.MuiTouchRipple-ripple').count()).toBe(1);
    await page.mouse.up();
  });

  it("draws the first row's details block once ahead, unseen, when the rows are drawn: the first Details click inserts no style, and nothing is left", async () => {
    // A new document with the session, watched from its start for the unseen block.
    const fresh = await page.context().newPage();
    try {
      await fresh.addInitScript(() => {
        const seen = window as unknown as { warmUps: number };
        seen.warmUps = 0;
        new MutationObserver((records) => {
          for (const record of records) for (const node of record.addedNodes) if (node instanceof Element && node.matches('[data-testid="details-warm-up"]')) seen.warmUps++;
        }).observe(document, { childList: true, subtree: true });
      });
      await fresh.goto(`${server.url}/platforms?sort=name`);
      const row = fresh.locator('.MuiDataGrid-row', { hasText: 'platform-002' });
      await row.waitFor();
      await expect.poll(() => fresh.evaluate(() => (window as unknown as { warmUps: number }).warmUps), { timeout: 10_000 }).toBe(1);
      await expect.poll(() => fresh.getByTestId('details-warm-up').count()).toBe(0);
      expect(await fresh.locator('[data-details-block]').count()).toBe(0);
      expect(await fresh.evaluate(() => document.activeElement === document.body)).toBe(true);

      const rules = await fresh.evaluate(() => [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join('\n'));
      await row.getByRole('button', { name: 'Details' }).click();
      const details = fresh.getByTestId('row-details');
      await details.waitFor();
      expect(await details.locator('[data-field="name"]').innerText()).toBe('platform-002');
      // Every style the block draws with was in the page before the click: its first opening inserted none.
      const classes = await details.evaluate((el) => [el, ...el.querySelectorAll('*')].flatMap((each) => [...each.classList]).filter((c) => c.startsWith('css-')));
      expect(classes.length).toBeGreaterThan(2);
      for (const name of new Set(classes)) expect(rules).toContain(`.${name}`);
      expect(await fresh.locator('[data-details-block]').count()).toBe(1);
      expect(await fresh.evaluate(() => (window as unknown as { warmUps: number }).warmUps)).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('opens a details row that shows every field of the record', async () => {
    await page.goto(`${server.url}/platforms?sort=name`);
    const row = page.locator('.MuiDataGrid-row', { hasText: 'platform-001' });
    await row.waitFor();
    const next = page.locator('.MuiDataGrid-row', { hasText: 'platform-002' });
    const before = (await next.boundingBox())!.y;
    await row.getByRole('button', { name: 'Details' }).click();
    const details = page.getByTestId('row-details');
    await details.waitFor();
    const text = await details.innerText();
    for (const label of ['id', 'Name', 'Max version', 'Created', 'Updated']) expect(text).toContain(label);
    expect(await details.locator('[data-field="name"]').innerText()).toBe('platform-001');
    expect(await details.locator('[data-field="maxVersion"]').innerText()).toBe('1.1.1');
    expect(await details.locator('[data-field="createdAt"]').innerText()).not.toBe('—');
    // The next row moved down by the details block: the grid reserved its height.
    const after = (await next.boundingBox())!.y;
    expect(after - before).toBe((await details.boundingBox())!.height);
  });

  it('opens and closes a details row from the keyboard, the Details button keeping the focus and saying whether it is open', async () => {
    await page.goto(`${server.url}/platforms?sort=name`);
    const row = page.locator('.MuiDataGrid-row', { hasText: 'platform-003' });
    await row.waitFor();
    const next = page.locator('.MuiDataGrid-row', { hasText: 'platform-004' });
    const before = (await next.boundingBox())!.y;
    const toggle = row.getByRole('button', { name: 'Details' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const details = page.getByTestId('row-details');
    expect(await details.locator('[data-field="name"]').innerText()).toBe('platform-003');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await details.waitFor({ state: 'detached' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await next.boundingBox())!.y).toBe(before);
  });

  it("names a row's buttons in a tooltip on hover and on keyboard focus, and asks before a delete", async () => {
    await page.goto(`${server.url}/platforms?sort=name`);
    const row = page.locator('.MuiDataGrid-row', { hasText: 'platform-006' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Edit' }).hover();
    await page.getByRole('tooltip', { name: 'Edit' }).waitFor();
    await page.mouse.move(700, 60);
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
    const toggle = row.getByRole('button', { name: 'Details' });
    await toggle.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await page.getByRole('tooltip', { name: 'Details' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Record: "platform-006"').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);
  });

  it('acts on the rows of the new page after Next: Details and Edit of a row of page 2 show that row', async () => {
    await page.goto(`${server.url}/platforms?sort=name&size=50`);
    await page.locator('.MuiDataGrid-row', { hasText: 'platform-001' }).waitFor();
    await page.getByRole('button', { name: 'Go to next page' }).click();
    const row = page.locator('.MuiDataGrid-row', { hasText: 'platform-052' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Details' }).click();
    expect(await page.getByTestId('row-details').locator('[data-field="name"]').innerText()).toBe('platform-052');
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('platform-052');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
