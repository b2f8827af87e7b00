import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

describe('an admin manages platforms through the screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    page = await (await browser.newContext()).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const rowOf = (name: string) => page.locator('.MuiDataGrid-row', { hasText: name });

  async function openAdd() {
    await page.getByRole('button', { name: 'Add' }).click();
    await dialog().getByLabel('Name').waitFor();
  }

  it('adds a platform with a typed max version, and it appears in the list', async () => {
    await page.goto(`${server.url}/platforms`);
    await page.getByRole('heading', { name: /Platforms/ }).waitFor();
    await openAdd();
    const ok = dialog().getByRole('button', { name: 'OK' });
    expect(await ok.isDisabled()).toBe(true);
    await dialog().getByLabel('Name').fill('webOS');
    await dialog().getByLabel('Max version').fill('10.20.30');
    expect(await ok.isDisabled()).toBe(false);
    await ok.click();
    await page.getByText('Add request status').waitFor();
    await dialog().waitFor({ state: 'detached' });
    await rowOf('webOS').waitFor();
    expect(await rowOf('webOS').textContent()).toContain('10.20.30');
  });

  it('keeps the modal open with the error notice when the add fails', async () => {
    await openAdd();
    await dialog().getByLabel('Name').fill('webOS');
    await dialog().getByLabel('Max version').fill('1.2.3');
    await dialog().getByRole('button', { name: 'OK' }).click();
    const notice = page.getByTestId('notice').filter({ hasText: /^Add request status\s*Error / });
    await notice.waitFor();
    await dialog().getByTestId('form-error').waitFor();
    expect(await dialog().isVisible()).toBe(true);
    expect(await dialog().getByLabel('Name').inputValue()).toBe('webOS');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('opens a fresh list\'s edit form filled from the row while the network is held: its code came while the list was idle', async () => {
    const fresh = await (await browser.newContext({ storageState: await page.context().storageState() })).newPage();
    try {
      await fresh.goto(`${server.url}/platforms`);
      await fresh.locator('.MuiDataGrid-row', { hasText: 'webOS' }).waitFor();
      await fresh.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/FormModal-[^/]*\.js$/.test(e.name)));
      // From here no call and no script answers until the form has been seen.
      const held: (() => void)[] = [];
      await fresh.route(/\/(v1|assets)\//, (route) => new Promise<void>((release) => held.push(release)).then(() => route.continue()));
      await fresh.locator('.MuiDataGrid-row', { hasText: 'webOS' }).getByRole('button', { name: 'Edit' }).click();
      const form = fresh.getByRole('dialog');
      await form.getByLabel('Name').waitFor();
      expect(await form.getByLabel('Name').inputValue()).toBe('webOS');
      expect(await form.getByLabel('Max version').inputValue()).toBe('10.20.30');
      await fresh.unrouteAll({ behavior: 'ignoreErrors' });
      for (const release of held) release();
    } finally {
      await fresh.context().close();
    }
  });

  it('draws the first row\'s edit form once, unseen, after the user leaves a fresh list alone: never under a key press, no call, no focus or scroll taken, nothing left', async () => {
    const fresh = await (await browser.newContext({ storageState: await page.context().storageState() })).newPage();
    try {
      // The page time and field values of each form drawn unseen, whether the page's scroll was ever locked, and the
      // last key's time.
      await fresh.addInitScript(() => {
        const w = window as unknown as { unseenForms: { at: number; values: string[] }[]; scrollLocked: boolean; lastKey: number };
        w.unseenForms = [];
        w.scrollLocked = false;
        addEventListener('keydown', (e) => (w.lastKey = e.timeStamp), true);
        new MutationObserver(() => {
          if (document.body?.style.overflow === 'hidden') w.scrollLocked = true;
          for (const host of document.querySelectorAll('body > [inert]')) {
            const form = host.querySelector('form');
            if (form && !host.hasAttribute('data-seen')) {
              host.setAttribute('data-seen', '');
              w.unseenForms.push({ at: performance.now(), values: [...form.querySelectorAll('input')].map((input) => input.value) });
            }
          }
        }).observe(document, { childList: true, subtree: true, attributes: true });
      });
      const calls: string[] = [];
      fresh.on('request', (request) => void (new URL(request.url()).pathname.startsWith('/v1/') && calls.push(new URL(request.url()).pathname)));
      await fresh.goto(`${server.url}/platforms`);
      const first = fresh.locator('.MuiDataGrid-row').first();
      await first.waitFor();
      const callsWithRows = calls.length;
      const filter = fresh.getByRole('textbox').first();
      await filter.focus();
      // A key every 300 ms for 3 s (Shift: it types nothing): nothing is drawn unseen meanwhile.
      const unseen = () => fresh.evaluate(() => (window as unknown as { unseenForms: { at: number; values: string[] }[] }).unseenForms);
      for (let i = 0; i < 10; i++) {
        await fresh.keyboard.press('Shift');
        await fresh.waitForTimeout(300);
      }
      expect(await unseen()).toEqual([]);
      const lastKey = await fresh.evaluate(() => (window as unknown as { lastKey: number }).lastKey);
      await expect.poll(async () => (await unseen()).length, { timeout: 10_000 }).toBe(1);
      const [drawn] = await unseen();
      expect(drawn.at - lastKey).toBeGreaterThanOrEqual(1000);
      expect(drawn.values).toContain((await first.getByRole('gridcell').nth(2).textContent())!.trim());
      await expect.poll(() => fresh.evaluate(() => document.querySelectorAll('body > [inert]').length)).toBe(0);
      expect(await fresh.evaluate(() => (window as unknown as { scrollLocked: boolean }).scrollLocked)).toBe(false);
      // The filter box keeps the focus the user gave it.
      expect(await filter.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await fresh.getByRole('dialog').count()).toBe(0);
      expect(calls.slice(callsWithRows).filter((path) => !path.startsWith('/v1/admin/platform/get'))).toEqual([]);
      // Once per entity and page: back on the list, nothing is drawn unseen again.
      await fresh.getByRole('button', { name: 'Reload' }).click();
      await fresh.waitForTimeout(2000);
      expect(await unseen()).toHaveLength(1);
    } finally {
      await fresh.context().close();
    }
  });

  it('edits the platform from its row, the form filled from the list, and sends the version it was opened from', async () => {
    const token = await server.login();
    const stored = (await server.api('GET', '/v1/admin/platform/get', { name: 'webOS' }, token)).data.rows[0];
    await rowOf('webOS').getByRole('button', { name: 'Edit' }).click();
    const name = dialog().getByLabel('Name');
    await name.waitFor();
    expect(await name.inputValue()).toBe('webOS');
    expect(await dialog().getByLabel('Max version').inputValue()).toBe('10.20.30');
    await name.fill('Tizen');
    const sent = page.waitForRequest((r) => r.url().includes('/v1/admin/platform/edit'));
    await dialog().getByRole('button', { name: 'OK' }).click();
    const params = new URL((await sent).url()).searchParams;
    expect(params.get('id')).toBe(String(stored.id));
    expect(params.get('updatedAt')).toBe(stored.updatedAt);
    await page.getByText('Edit request status').waitFor();
    await dialog().waitFor({ state: 'detached' });
    await rowOf('Tizen').waitFor();
    expect(await rowOf('webOS').count()).toBe(0);
  });

  it('deletes the platform after the confirmation', async () => {
    await rowOf('Tizen').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Record: "Tizen"').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await page.getByText('Delete request status').waitFor();
    await rowOf('Tizen').waitFor({ state: 'detached' });
    await page.getByText('No records').waitFor();
  });

  it('logs in and works for the visit when the browser cannot store anything (its storage full)', async () => {
    await server.api('GET', '/v1/admin/platform/add', { name: 'Orsay', maxVersion: '1.0.0' }, await server.login());
    const context = await browser.newContext();
    await context.addInitScript(() => {
      const stored = Storage.prototype.setItem;
      (window as unknown as { storeAnyway: typeof stored }).storeAnyway = stored;
      Storage.prototype.setItem = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    const full = await context.newPage();
    await full.goto(`${server.url}/login`);
    // What an earlier login left before the storage filled up: it must not become the next visit's session.
    await full.evaluate(() => {
      const store = (window as unknown as { storeAnyway: Storage['setItem'] }).storeAnyway;
      store.call(localStorage, 'token', 'an-earlier-token');
      store.call(localStorage, 'user', JSON.stringify({ email: 'earlier@example.com', role: 'admin' }));
    });
    // Logged in on this page (a reload would start from the earlier session, which the server refuses).
    await full.getByLabel('E-mail').fill(ADMIN.email);
    await full.getByLabel('Password').fill(ADMIN.password);
    await full.getByRole('button', { name: 'Login' }).click();
    await full.getByRole('link', { name: 'Platforms' }).click();
    await full.locator('.MuiDataGrid-row', { hasText: 'Orsay' }).waitFor();
    expect(await full.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });
});
