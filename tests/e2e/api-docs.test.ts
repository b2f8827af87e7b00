// /docs in Chromium against the real server: the page draws with its own style under its policy (no CSP
// violation, nothing loaded from elsewhere), and a call folds open to show its parameters and failure codes.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type RunningServer } from './harness';

describe('API docs page in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows every call styled, with no policy violation, and opens a call to its parameters and codes', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1024, height: 800 } })).newPage();
    const problems: string[] = [];
    page.on('console', (message) => problems.push(message.text()));
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) elsewhere.push(request.url());
    });
    await page.goto(`${server.url}/docs`);
    // The inline style applied: the method badges are coloured boxes.
    const badge = page.locator('#op-platform\\.update .method');
    expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(21, 101, 192)');
    const details = page.locator('#op-platform\\.update');
    // maxVersion is named twice once opened: in the body the call takes and in the record it answers.
    const field = details.getByText('maxVersion', { exact: true });
    expect(await field.count()).toBe(2);
    expect(await field.first().isVisible()).toBe(false);
    await details.locator('summary').click();
    expect(await field.first().isVisible()).toBe(true);
    expect(await field.last().isVisible()).toBe(true);
    expect(await details.getByRole('link', { name: 'ERR_CONFLICT' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});
