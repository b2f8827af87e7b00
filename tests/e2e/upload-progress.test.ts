// A form's upload in progress (issue 35 item 3): the add/edit modal of an entity with files shows "Sent X of Y"
// with a bar and a "Cancel upload" while the bytes go out. Cancel keeps the form open with its values, says so
// politely, and nothing is written: no record, no file left in DATA_DIR/.staging. The upload is slowed with
// Chromium's own network throttling so a 1.9 MB file takes seconds. DOCS_SHOTS=1 saves the README's screenshot.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWhitelabel } from './catalogue-helpers';
import { chooseOption, launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

const SHOTS = resolve(import.meta.dirname, '../../docs/screenshots');
/**
 * A translations file of 1.9 MB (the field takes up to 2 MiB): a small object laid out with much white space, so
 * the stored record stays small (a list holding a 1 MB translations value is another matter).
 */
const translationsFile = (hello: string) => {
  const text = JSON.stringify({ ru: { hello } });
  return Buffer.from(text + ' '.repeat(1_900_000 - Buffer.byteLength(text)));
};

describe('a form upload shows its progress and can be cancelled', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let token: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    token = await server.login();
    await addWhitelabel(server, token, 'acme');
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    cdp = await page.context().newCDPSession(page);
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const progress = () => dialog().getByTestId('upload-progress');
  const localisations = async () => (await server.api('GET', '/v1/admin/localisation/get', { pageSize: 100 }, token)).data.rows as { whitelabelId: number; translations: Record<string, unknown> }[];
  /** The files waiting in the server's staging folder (uploads being read, writes' journals). */
  const staged = () => {
    const folder = join(server.dataDir, '.staging');
    return existsSync(folder) ? readdirSync(folder) : [];
  };
  /** Limits what the page sends to `bytesPerSecond` (Chromium's DevTools throttling); 0 lifts the limit. */
  const throttleUpload = (bytesPerSecond: number) =>
    cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond || -1 });
  /** The status line's "Sent X of Y" as [X, Y] in bytes (units as the panel writes them). */
  const sentOf = async (): Promise<[number, number]> => {
    const text = await progress().getByRole('status').innerText();
    const bytes = (n: string, unit: string) => Number(n.replace(/\s/g, '').replace(',', '.')) * ({ kB: 1e3, MB: 1e6, GB: 1e9, кБ: 1e3, МБ: 1e6, ГБ: 1e9 } as Record<string, number>)[unit];
    const m = /^(?:Sent|Отправлено) ([\d.,\s]+) (kB|MB|GB|кБ|МБ|ГБ) (?:of|из) ([\d.,\s]+) (kB|MB|GB|кБ|МБ|ГБ)$/.exec(text);
    if (!m) throw new Error(`not a count: ${text}`);
    return [bytes(m[1], m[2]), bytes(m[3], m[4])];
  };

  async function docShot(name: string) {
    if (!process.env.DOCS_SHOTS) return;
    await page.setViewportSize({ width: 1024, height: 760 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, `${name}-1024.png`), animations: 'disabled' });
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  it('counts the bytes sent, and Cancel upload keeps the form with its values and stores nothing', async () => {
    await page.goto(`${server.url}/localisations`);
    await page.getByRole('button', { name: 'Add' }).click();
    await chooseOption(page, dialog().getByLabel('Whitelabel ID'), /acme/);
    await dialog().locator('input[type=file]').setInputFiles({ name: 'translations.json', mimeType: 'application/json', buffer: translationsFile('Привет') });
    await dialog().getByLabel('Active').check();
    await throttleUpload(150_000);
    await dialog().getByRole('button', { name: 'OK' }).click();

    await progress().getByRole('status').filter({ hasText: /^Sent [1-9][\d.,]* kB of 1\.9 MB$/ }).waitFor({ timeout: 10_000 });
    const [first, total] = await sentOf();
    expect(total).toBe(1.9e6);
    await expect.poll(async () => (await sentOf())[0], { timeout: 10_000 }).toBeGreaterThan(first + 100_000);
    const bar = progress().getByRole('progressbar');
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    // The server is reading the body into its staging folder as it comes.
    expect(staged().some((name) => name.endsWith('.upload'))).toBe(true);
    await docShot('upload-progress');

    await progress().getByRole('button', { name: 'Cancel upload' }).click();
    const notice = page.getByTestId('notice').filter({ hasText: 'Add request status' }).filter({ hasText: 'Cancelled; nothing was stored' });
    await notice.waitFor();
    expect(await notice.getAttribute('role')).toBe('status');
    await progress().waitFor({ state: 'detached' });
    // The form is as it was before OK: its whitelabel, its file and its checkbox, ready to be sent again.
    expect(await dialog().getByLabel('Whitelabel ID').inputValue()).toContain('acme');
    expect(await dialog().getByTestId('file-translations').innerText()).toContain('translations.json');
    expect(await dialog().getByLabel('Active').isChecked()).toBe(true);
    expect(await dialog().getByRole('button', { name: 'OK' }).isEnabled()).toBe(true);
    expect(await dialog().getByTestId('form-error').count()).toBe(0);
    // Nothing written: no record, and the partly received file is gone from the staging folder.
    expect(await localisations()).toEqual([]);
    await expect.poll(staged, { timeout: 5_000 }).toEqual([]);
  }, 60_000);

  it('sends the same form again to the end: the count reaches the whole file, then the record is in the list', async () => {
    await throttleUpload(600_000);
    await dialog().getByRole('button', { name: 'OK' }).click();
    await progress().getByRole('status').filter({ hasText: /^Sent [1-9][\d.,]* (kB|MB) of 1\.9 MB$/ }).waitFor({ timeout: 10_000 });
    await page.getByTestId('notice').filter({ hasText: 'Add request status' }).filter({ hasText: 'Success' }).waitFor({ timeout: 20_000 });
    await dialog().waitFor({ state: 'detached' });
    await throttleUpload(0);
    await page.locator('.MuiDataGrid-row', { hasText: 'acme' }).waitFor();
    const rows = await localisations();
    expect(rows).toHaveLength(1);
    expect(rows[0].translations).toEqual({ ru: { hello: 'Привет' } });
    expect(staged()).toEqual([]);
  }, 60_000);

  it('says it in Russian: the count, Cancel upload and the notice', async () => {
    await page.evaluate(() => localStorage.setItem('panel.lang', 'ru'));
    await page.goto(`${server.url}/localisations`);
    const row = page.locator('.MuiDataGrid-row', { hasText: 'acme' });
    await row.getByRole('button', { name: 'Изменить' }).click();
    await dialog().locator('input[type=file]').setInputFiles({ name: 'other.json', mimeType: 'application/json', buffer: translationsFile('Здравствуйте') });
    await throttleUpload(150_000);
    await dialog().getByRole('button', { name: 'OK' }).click();
    await progress().getByRole('status').filter({ hasText: /^Отправлено [1-9][\d\s,]* кБ из 1,9 МБ$/ }).waitFor({ timeout: 10_000 });
    expect(Number(await progress().getByRole('progressbar').getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    await progress().getByRole('button', { name: 'Отменить загрузку' }).click();
    await page.getByTestId('notice').filter({ hasText: 'Отменено; ничего не сохранено' }).waitFor();
    expect(await dialog().getByTestId('file-translations').innerText()).toContain('other.json');
    await throttleUpload(0);
    const rows = await localisations();
    expect(rows[0].translations).toEqual({ ru: { hello: 'Привет' } });
    await expect.poll(staged, { timeout: 5_000 }).toEqual([]);
    await page.evaluate(() => localStorage.setItem('panel.lang', 'en'));
  }, 60_000);
});
