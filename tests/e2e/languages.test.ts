// ru/en in Chromium against the real server: the language is chosen on the login screen, remembered over a
// reload, and turns the menu, the list, the grid, the pager, the form and the server's refusals Russian.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, launchBrowser, startServer, type RunningServer } from './harness';

describe('Russian and English in the panel', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    for (const name of ['tizen', 'webos']) await server.api('GET', '/v1/admin/platform/add', { name, maxVersion: '01.20.34' }, token);
    page = await (await browser.newContext({ viewport: { width: 1024, height: 800 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const choose = async (language: 'English' | 'Русский') => {
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: language }).click();
  };

  it('switches to Russian on the login screen and logs in with the Russian form', async () => {
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await choose('Русский');
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Пароль').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByRole('button', { name: 'Выйти' }).waitFor();
    const menu = await page.getByRole('navigation').textContent();
    expect(menu).toContain('Платформы');
    expect(menu).not.toContain('Platforms');
  });

  it('shows the list, the grid, the pager and the sort select in Russian, numbers and dates the Russian way', async () => {
    await page.goto(`${server.url}/platforms`);
    await page.getByRole('heading', { name: /Платформы/ }).waitFor();
    await page.getByText('всего 2').waitFor();
    const header = await page.locator('.MuiDataGrid-columnHeaders').textContent();
    for (const title of ['Действия', 'Название', 'Макс. версия', 'Создано']) expect(header).toContain(title);
    await page.getByText('Строк на странице:').waitFor();
    await page.getByText('1–2 из 2').waitFor();
    await page.getByRole('button', { name: 'Добавить' }).waitFor();
    await page.getByLabel('Сортировка').waitFor();
    // A date cell reads day.month.year.
    expect(await page.locator('.MuiDataGrid-row').first().textContent()).toMatch(/\d{2}\.\d{2}\.\d{4}, \d{1,2}:\d{2}:\d{2}/);
  });

  it("words the form's errors and the server's refusals in Russian", async () => {
    await page.getByRole('button', { name: 'Добавить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Добавление: платформа' }).waitFor();
    await dialog.getByLabel('Название').fill('tizen');
    await dialog.getByLabel('Макс. версия').fill('1.2');
    await dialog.getByText('Поле «Макс. версия» должно быть версией XX.YY.ZZ, например 01.20.34').waitFor();
    await dialog.getByLabel('Макс. версия').fill('01.02.03');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('notice').filter({ hasText: 'Добавить: статус запроса' }).filter({ hasText: 'Ошибка: Значение поля «Название» уже занято' }).waitFor();
    await dialog.getByRole('button', { name: 'Отмена' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('is remembered over a reload, and switching back from the shell gives the English texts as written', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Выйти' }).waitFor();
    await page.getByRole('heading', { name: /Платформы/ }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('panel.lang'))).toBe('ru');
    await choose('English');
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.getByRole('heading', { name: /Platforms/ }).waitFor();
    await page.getByText('2 total').waitFor();
    await page.getByText('Rows per page:').waitFor();
    await page.getByText('1–2 of 2').waitFor();
    expect(await page.locator('.MuiDataGrid-columnHeaders').textContent()).toContain('Max version');
    await page.reload();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('panel.lang'))).toBe('en');
  });
});
