// Dark mode: light, dark or the system's choice, switched in the shell and remembered in the browser.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

const LIGHT = 'rgb(244, 246, 251)';
const DARK = 'rgb(15, 19, 32)';

describe('the theme switch', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("follows the system's choice until the user picks one, and keeps the pick after a reload", async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await loginThroughScreen(page, server);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe(DARK);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction((light) => getComputedStyle(document.body).backgroundColor === light, LIGHT);

    await page.getByRole('button', { name: 'Theme' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.waitForFunction((dark) => getComputedStyle(document.body).backgroundColor === dark, DARK);
    await page.reload();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(await background()).toBe(DARK);

    await page.getByRole('button', { name: 'Theme' }).click();
    expect(await page.getByRole('menuitemradio', { name: 'Dark' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('menuitemradio', { name: "System's choice" }).click();
    await page.waitForFunction((light) => getComputedStyle(document.body).backgroundColor === light, LIGHT);
    await context.close();
  });
});
