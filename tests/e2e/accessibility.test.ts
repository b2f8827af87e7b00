// WCAG 2.2 AA in Chromium against the real server: axe-core on the login page, every menu screen of an admin, its
// add and edit forms, the delete confirmation, the bar's menus and /docs, in light and dark, finds no serious or
// critical violation; and the keyboard reaches everything in few presses: a skip link first, the grid as one Tab
// stop moved through with the arrow keys, its row buttons reached from the focused row.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifestDir } from '../../kernel/manifest/read-dir';
import { menuFor } from '../../src/core/access/access';
import { addWhitelabel, shot } from './catalogue-helpers';
import { ADMIN, launchBrowser, networkQuiet, startServer, type RunningServer } from './harness';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Found {
  rule: string;
  impact: string;
  targets: string[];
  summary: string;
}

/**
 * The serious and critical violations axe-core finds on the page (or inside `scope`, a CSS selector), WCAG 2.0-2.2
 * A and AA and axe's best practices, or only `rules`. The page's own policy cannot stop it: the context bypasses
 * the page's CSP.
 */
async function axeViolations(page: Page, scope?: string, rules?: string[]): Promise<Found[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  // Transitions done (a dialog fading in is drawn at a lower contrast meanwhile).
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
  return page.evaluate(async ({ within, rules }) => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[]; failureSummary: string }[] }[] }> } }).axe;
    const runOnly = rules ? { type: 'rule', values: rules } : { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] };
    const result = await axe.run(within ?? document, { resultTypes: ['violations'], runOnly });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ rule: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')), summary: v.nodes[0]?.failureSummary.slice(0, 200) ?? '' }));
  }, { within: scope, rules });
}

describe('WCAG 2.2 AA: axe-core on every screen and dialog, and the keyboard', () => {
  let server: RunningServer;
  let browser: Browser;
  /** Every serious or critical violation found so far, by the place it was seen in; the last case asserts none. */
  const found: Record<string, Found[]> = {};
  let checked = 0;

  /** Dark mode changes colours only: there the rules about colour run, the others once, in light mode. */
  const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
  async function check(page: Page, place: string, scope?: string) {
    const violations = await axeViolations(page, scope, place.startsWith('dark') ? COLOUR_RULES : undefined);
    checked++;
    if (violations.length) found[place] = violations;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    await server.api('GET', '/v1/admin/platform/add', { name: 'tizen', maxVersion: '01.20.34' }, token);
    await addWhitelabel(server, token, 'acme');
    await server.api('GET', '/v1/admin/testersEmails/add', { email: 'tester@example.com', active: true }, token);
    for (let i = 0; i < 3; i++) await server.api('GET', '/v1/admin/testersEmails/add', { email: `t${i}@example.com`, active: i % 2 === 0 }, token);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function newPage(mode: 'light' | 'dark', width = 1440): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: mode, bypassCSP: true, reducedMotion: 'reduce' });
    return { context, page: await context.newPage() };
  }

  async function login(page: Page) {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
  }

  for (const mode of ['light', 'dark'] as const) {
    it(`finds nothing serious on every screen, form, confirmation and menu in ${mode} mode`, { timeout: 300_000 }, async () => {
      const { context, page } = await newPage(mode);
      const dialog = () => page.getByRole('dialog');
      const checkDialog = async (place: string, opener: Locator) => {
        await opener.click();
        await dialog().waitFor();
        await networkQuiet(page, 300);
        await check(page, `${mode} ${place}`, '[role="dialog"]');
        await shot(page, `a11y-${mode}-${place.replace(/\W+/g, '-')}`);
        await dialog().getByRole('button', { name: 'Cancel' }).click();
        await dialog().waitFor({ state: 'detached' });
      };

      await page.goto(`${server.url}/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await check(page, `${mode} login`);
      await page.getByLabel('E-mail').fill(ADMIN.email);
      await page.getByLabel('Password').fill('wrong-password-1');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByTestId('login-error').waitFor();
      await check(page, `${mode} login with an error`);
      await shot(page, `a11y-${mode}-login-error`);
      await login(page);

      const manifests = loadManifestDir('schemas');
      const routes = menuFor(manifests, 'admin').flatMap((e) => (e.kind === 'group' ? e.items : [e])).map((e) => e.route);
      for (const route of routes) {
        await page.goto(`${server.url}${route}`);
        await page.getByRole('button', { name: 'Logout' }).waitFor();
        await networkQuiet(page, 300);
        await check(page, `${mode} ${route}`);
        await shot(page, `a11y-${mode}-${route.slice(1)}`);
        const create = Object.values(manifests.find((m) => m.screen?.route === route)?.actions ?? {}).find((a) => a.kind === 'create' && a.roles.includes('admin'));
        if (create) await checkDialog(`${route} add form`, page.getByRole('main').getByRole('button', { name: create.ui?.label ?? 'Add', exact: true }));
        // An edit form is its add form with values: its colours are checked in light mode, once.
        const edit = page.locator('.MuiDataGrid-row').first().getByRole('button', { name: 'Edit', exact: true });
        if (mode === 'light' && (await edit.count())) await checkDialog(`${route} edit form`, edit);
      }

      await page.goto(`${server.url}/platforms`);
      await page.locator('.MuiDataGrid-row').first().getByRole('button', { name: 'Delete' }).first().click();
      await dialog().waitFor();
      await check(page, `${mode} delete confirmation`, '[role="dialog"]');
      await dialog().getByRole('button', { name: 'Cancel' }).click();
      await dialog().waitFor({ state: 'detached' });

      for (const name of ['Theme', 'Language']) {
        await page.getByRole('button', { name }).click();
        await page.getByRole('menu').waitFor();
        await check(page, `${mode} ${name} menu`, '[role="menu"]');
        await page.keyboard.press('Escape');
        await page.getByRole('menu').waitFor({ state: 'detached' });
      }
      const group = page.getByRole('navigation').locator('button[aria-haspopup="menu"]').first();
      await group.click();
      await page.getByRole('menu').waitFor();
      await check(page, `${mode} menu group`, '[role="menu"]');
      await page.keyboard.press('Escape');

      await page.goto(`${server.url}/docs`);
      await check(page, `${mode} /docs`);
      await shot(page, `a11y-${mode}-docs`);
      await context.close();
    });
  }

  it('reaches the grid in a few Tabs from the top, moves through it with the arrows, and leaves it with one Tab', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage('light', 1024);
    await login(page);
    await page.goto(`${server.url}/testerEmails`);
    await page.locator('.MuiDataGrid-row').nth(3).waitFor();
    await networkQuiet(page);

    // The first Tab of the page shows the skip link, which takes the focus to the screen.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await skip.isVisible()).toBe(true);
    await shot(page, 'a11y-skip-link');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);

    const inGrid = () => page.evaluate(() => document.activeElement?.closest('[role="gridcell"], [role="columnheader"]') !== null);
    let presses = 0;
    while (!(await inGrid())) {
      await page.keyboard.press('Tab');
      if (++presses > 15) throw new Error('the grid was not reached in 15 Tabs after the skip link');
    }
    // One more Tab leaves the grid for its pager, whatever the number of rows and row buttons.
    await page.keyboard.press('Tab');
    const leftTo = await page.evaluate(() => ({ inPager: document.activeElement?.closest('.MuiTablePagination-root') !== null, label: document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent }));
    expect(leftTo.inPager, `one Tab after the grid went to ${leftTo.label}`).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await inGrid()).toBe(true);

    // The arrows go down to the first row and right to its actions; a focus ring shows where the focus is.
    const focused = () => page.evaluate(() => ({ field: document.activeElement?.closest('[data-field]')?.getAttribute('data-field'), row: document.activeElement?.closest('[data-rowindex]')?.getAttribute('data-rowindex'), name: document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent }));
    for (let i = 0; i < 10 && (await focused()).row !== '0'; i++) await page.keyboard.press('ArrowDown');
    expect((await focused()).row).toBe('0');
    for (let i = 0; i < 15 && (await focused()).name !== 'Edit'; i++) await page.keyboard.press('ArrowRight');
    expect(await focused()).toMatchObject({ row: '0', name: 'Edit' });
    const ring = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement!);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(ring.style).not.toBe('none');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    await shot(page, 'a11y-row-action-focused');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(await page.getByRole('dialog').getByRole('textbox', { name: 'Email', exact: true }).inputValue()).toMatch(/@example\.com$/);
    await page.keyboard.press('Escape');
    await context.close();
  });

  it('found no serious or critical violation', () => {
    expect(checked).toBeGreaterThan(80);
    expect(Object.entries(found).flatMap(([place, violations]) => violations.map((v) => `${place}: ${v.rule} at ${v.targets.join(' | ')}: ${v.summary}`))).toEqual([]);
  });
});
