// Every screen and dialog of the panel in Russian, in Chromium against the real server: the login page (and its
// error), every menu screen as admin, each add form and an edit form, the delete confirmation, forms refused by
// their rules and by the server, the IP import with bad lines, Pipelines without GitLab and a 404 of Test request.
// Each one's UI chrome (headings, labels, buttons, tooltips, aria-labels, helper and error texts, notices, empty
// states) must hold no Latin word but the product names below, e-mails, URLs and the values this test seeds or types.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifestDir } from '../../kernel/manifest/read-dir';
import { menuFor } from '../../src/core/access/access';
import ru from '../../src/i18n/ru.json';
import { addWhitelabel, shot } from './catalogue-helpers';
import { ADMIN, launchBrowser, networkQuiet, startServer, type RunningServer } from './harness';

/**
 * Latin words a Russian screen may show: product, vendor and protocol names and abbreviations read the same in
 * Russian (GitLab, LG, CSS, IP, A/B, the time zone UTC...), the language switch's RU, the formats' notations (XX.YY.ZZ, a.b.c.d), the
 * role names the spec keeps (admin, developer, tester) and the spec's own "WL".
 */
const ALLOWED = new Set([
  'RU', 'EN', 'LG', 'Samsung', 'GitLab', 'CSS', 'PNG', 'CSV', 'JSON', 'IP', 'IPv4', 'URL', 'URLs', 'ID', 'GUID', 'FE', 'WL', 'A', 'B', 'OK', 'API', 'HTTP',
  'XX', 'YY', 'ZZ', 'X', 'a', 'b', 'c', 'd', 'e', 'mail', 'E', 'admin', 'developer', 'tester', 'true', 'false', 'Tizen', 'webOS', 'UTC',
]);
/** The panel's name in its bar, a product name. */
const PRODUCT_PHRASES = ['WL admin panel'];
/** What this test seeds or types: values, not texts of the panel. */
const VALUES = ['ips.txt', 'acme', 'tizen', 'tester@example.com', 'not-an-address', 'hello', 'nosuch', 'GITLAB_URL', 'GITLAB_TOKEN', 'GITLAB_PROJECT_ID', 'GITLAB_WEBHOOK_SECRET', 'start~end', '1080p', 'bundleA.js'];

/**
 * The UI texts inside `scope`: text outside grid cells, code, a textarea's value and a select's chosen value, and
 * every aria-label, title, placeholder and alt.
 */
function chromeTexts(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const DATA = '.MuiDataGrid-cell, code, pre, textarea, script, style, .MuiChip-root, [data-testid="user-email"], .MuiSelect-select, .MuiAutocomplete-tag';
    const out: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (el && !el.closest(DATA) && node.textContent?.trim()) out.push(node.textContent.trim());
    }
    for (const el of root.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      // A button in a cell (Edit, Delete) is chrome; any other attribute in a cell carries the cell's value.
      if (el.closest('code, pre, [data-testid="user-email"]') || (el.closest('.MuiDataGrid-cell') && el.tagName !== 'BUTTON')) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = el.getAttribute(name);
        if (value?.trim()) out.push(value.trim());
      }
    }
    return out;
  });
}

/** The Latin words of the texts that are not allowed, each with the text it is in. */
export function latinWords(texts: string[]): string[] {
  const bad = new Set<string>();
  for (const text of texts) {
    let rest = text.replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, ' ').replace(/(https?:\/\/|\/)[^\s)»"]*/g, ' ');
    for (const value of [...PRODUCT_PHRASES, ...VALUES]) rest = rest.split(value).join(' ');
    for (const word of rest.split(/[^A-Za-z0-9]+/)) {
      if (!/[A-Za-z]/.test(word) || /^\d+(x\d+|p|px|s)?$/.test(word) || ALLOWED.has(word)) continue;
      bad.add(`${word} in "${text}"`);
    }
  }
  return [...bad];
}

describe('every screen and dialog in Russian', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const dialog = () => page.getByRole('dialog');
  /** Every Latin word found so far, by the place it was seen in; the test's last case asserts it is empty. */
  const found: Record<string, string[]> = {};

  /** Reads the UI texts of the page (or of a dialog) and records the Latin words found at `place`. */
  async function check(place: string, scope: Locator = page.locator('body')) {
    const words = latinWords(await chromeTexts(scope));
    if (words.length) found[place] = words;
    return words;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    await server.api('GET', '/v1/admin/platform/add', { name: 'tizen', maxVersion: '01.20.34' }, token);
    await addWhitelabel(server, token, 'acme');
    await server.api('GET', '/v1/admin/testersEmails/add', { email: 'tester@example.com', active: true }, token);
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    await context.addInitScript(() => localStorage.setItem('panel.lang', 'ru'));
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('says a wrong password on the login page in Russian, then logs in', async () => {
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    await check('login');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Пароль').fill('wrong-password-1');
    await page.getByRole('button', { name: 'Войти' }).click();
    const error = page.getByRole('alert');
    await error.waitFor();
    await check('login with a wrong password');
    await shot(page, 'ru-login-wrong-password');
    const said = await error.innerText();
    await page.getByLabel('Пароль').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByRole('button', { name: 'Выйти' }).waitFor();
    expect(said).toBe('Неверный e-mail или пароль');
  });

  /** Opens a form with `button`, reads it, and closes it with Cancel. */
  async function checkForm(place: string, button: Locator) {
    await button.click();
    await dialog().waitFor();
    await networkQuiet(page);
    await check(place, dialog());
    await dialog().getByRole('button', { name: 'Отмена' }).click();
    await dialog().waitFor({ state: 'detached' });
  }

  // One case per menu screen: the twenty screens with their forms took most of a minute alone, and past it beside the
  // server files on a busy machine.
  const manifests = loadManifestDir('schemas');
  const routes = menuFor(manifests, 'admin').flatMap((e) => (e.kind === 'group' ? e.items : [e])).map((e) => e.route);
  let forms = 0;
  for (const route of routes) {
    it(`shows the admin's screen ${route}, its add and edit forms in Russian`, async () => {
      await page.goto(`${server.url}${route}`);
      await page.getByRole('button', { name: 'Выйти' }).waitFor();
      await networkQuiet(page);
      await check(route);
      const create = Object.values(manifests.find((m) => m.screen?.route === route)?.actions ?? {}).find((a) => a.kind === 'create' && a.roles.includes('admin'));
      if (create) {
        await checkForm(`${route}: add form`, page.getByRole('main').getByRole('button', { name: (ru as Record<string, string>)[create.ui?.label ?? 'Add'], exact: true }));
        forms++;
      }
      const edit = page.locator('.MuiDataGrid-row').first().getByRole('button', { name: 'Изменить', exact: true });
      if (await edit.count()) {
        await checkForm(`${route}: edit form`, edit);
        forms++;
      }
    });
  }

  it('has shown every menu screen of an admin with its forms, and its boolean cells in Russian', async () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(forms).toBeGreaterThan(15);
    await page.goto(`${server.url}/testerEmails`);
    const active = page.locator('.MuiDataGrid-row').first().locator('.MuiChip-label');
    await active.first().waitFor();
    expect(await active.allTextContents()).toEqual(['да']);
  });

  it('shows the delete confirmation and a refusal of the server in Russian', async () => {
    await page.goto(`${server.url}/platforms`);
    const row = page.locator('.MuiDataGrid-row').first();
    await row.getByRole('button', { name: 'Удалить' }).first().click();
    await dialog().waitFor();
    await check('delete confirmation', dialog());
    await shot(page, 'ru-delete-confirmation');
    await dialog().getByRole('button', { name: 'Отмена' }).click();
    await dialog().waitFor({ state: 'detached' });

    await page.getByRole('main').getByRole('button', { name: 'Добавить', exact: true }).click();
    await dialog().getByLabel('Название').fill('tizen');
    await dialog().getByLabel('Макс. версия').fill('01.02.03');
    await dialog().getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('notice').first().waitFor();
    await check('platform add form refused by the server', dialog());
    await check('platform add form refused by the server: notice', page.getByTestId('notice').first());
    await shot(page, 'ru-server-refusal');
    await dialog().getByText('Значение поля «Название» уже занято').first().waitFor({ timeout: 1000 });
    await dialog().getByRole('button', { name: 'Отмена' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it("lists the whitelabel form's missing fields by their Russian titles", async () => {
    await page.goto(`${server.url}/whitelabels`);
    await page.getByRole('main').getByRole('button', { name: 'Добавить', exact: true }).click();
    await dialog().getByRole('button', { name: 'OK' }).click();
    const errors = page.getByTestId('whitelabel-errors');
    await errors.waitFor();
    await check('whitelabel form with missing fields', dialog());
    await shot(page, 'ru-whitelabel-errors');
    const listed = await errors.innerText();
    await dialog().getByRole('button', { name: 'Отмена' }).click();
    expect(listed).toContain('Требуется указать Название');
  });

  it("lists the experiment form's missing parts in Russian, its buttons and tooltips", async () => {
    await page.goto(`${server.url}/abtesting`);
    await page.getByRole('main').getByRole('button', { name: 'Новый эксперимент', exact: true }).click();
    await page.getByTestId('experiment-problems').waitFor();
    await check('experiment form with missing parts', dialog());
    await shot(page, 'ru-experiment-problems');
    await dialog().getByRole('button', { name: 'Отмена' }).click();
  });

  it('shows the list field of the combination form with Russian buttons and tooltips (RJSF)', async () => {
    await page.goto(`${server.url}/combinations`);
    await page.getByRole('main').getByRole('button', { name: 'Добавить', exact: true }).click();
    // Found by either wording, so that an English tooltip is reported by the check rather than a timeout.
    await dialog().getByRole('button', { name: /^(Добавить элемент|Add Item)$/ }).click();
    await check('combination form with a list item', dialog());
    await dialog().getByRole('button', { name: 'Отмена' }).click();
  });

  it('names the bad lines of an IP import in Russian', async () => {
    await page.goto(`${server.url}/testerIP`);
    await page.getByRole('button', { name: 'Импорт из файла' }).click();
    await dialog().getByLabel('Вендор').click();
    await page.getByRole('option').first().click();
    await dialog()
      .locator('input[type=file]')
      .setInputFiles({ name: 'ips.txt', mimeType: 'text/plain', buffer: Buffer.from('10.0.0.1\nnot-an-address\n10.0.0.5~10.0.0.1\n1.2.*.4\n') });
    const problems = page.getByTestId('ip-import-problems');
    await problems.waitFor();
    await check('IP import with bad lines', dialog());
    await shot(page, 'ru-ip-import-problems');
    expect(await problems.innerText()).toContain('строка 2:');
    await dialog().getByRole('button', { name: 'Отмена' }).click();
  });

  it('says in Russian that GitLab is not configured', async () => {
    await page.goto(`${server.url}/pipelines`);
    await page.getByTestId('gitlab-not-configured').waitFor();
    await check('pipelines without GitLab');
    await shot(page, 'ru-pipelines-no-gitlab');
  });

  it('shows a 404 of Test request in Russian', async () => {
    await page.goto(`${server.url}/testRequest`);
    await page.getByLabel('Название вайтлейбла').fill('nosuch');
    await page.getByRole('button', { name: 'Отправить' }).click();
    await page.getByRole('alert').filter({ hasText: '404' }).waitFor();
    for (const tab of page.context().pages().filter((p) => p !== page)) await tab.close();
    await check('test request with a 404');
    await shot(page, 'ru-test-request-404');
  });

  it('found no English word on any of them', () => {
    expect(found).toEqual({});
  });
});
