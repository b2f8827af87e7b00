// The dashboard at "/": the build calls as buttons, and the live console and panels fed over the socket.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWhitelabel, dropBuild, shot } from './catalogue-helpers';
import { chooseOption, launchBrowser, loginThroughScreen, type RunningServer, startServer } from './harness';

describe('the dashboard', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    await addWhitelabel(server, token, 'acme');
    await addWhitelabel(server, token, 'zeta');
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const region = (name: string) => page.getByRole('region', { name });

  it('opens on "/" with the three empty live panels and Reload builds for wl disabled until a whitelabel is chosen', async () => {
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await region('Update statuses').getByText('No update info').waitFor();
    await region('Build check statuses').getByText('No active check processes').waitFor();
    await region('Last build processing errors').getByText('No last errors').waitFor();
    expect(await page.getByRole('button', { name: 'Reload builds for wl' }).isDisabled()).toBe(true);
    await page.getByText('Live', { exact: true }).waitFor();
  });

  it('reloads builds: the console and the whitelabel panel show what the server found, live', async () => {
    dropBuild(server, ['acme', 'tizen', '1.0.0', '1080p']);
    dropBuild(server, ['acme', 'webos', '1.0.0', '1080p']);
    dropBuild(server, ['zeta', 'tizen', '1.0.0', '1080p']);
    await page.getByRole('button', { name: 'Reload builds', exact: true }).click();
    await page.getByText('Reload builds request status').waitFor();
    await page.getByRole('log', { name: 'Console' }).getByText(/Reload builds: 3 builds on disk, 3 new/).waitFor();
    await region('Update statuses').getByText(/2 builds reloaded$/).waitFor();
    await region('Update statuses').getByText(/1 build reloaded$/).waitFor();
    expect(await region('Update statuses').textContent()).toContain('acme');
  });

  it('updates build statuses: a build whose file is gone is listed among the last errors', async () => {
    rmSync(join(server.dataDir, 'builds', 'acme', 'webos', '1.0.0', '1080p', 'app.js'));
    await page.getByRole('button', { name: 'Update builds statuses' }).click();
    await page.getByText('Update builds statuses request status').waitFor();
    await region('Last build processing errors').getByText(/missing/).waitFor();
    await page.getByRole('log', { name: 'Console' }).getByText(/2 available, 1 unavailable/).waitFor();
    await shot(page, 'dashboard');
  });

  it('reloads the builds of one whitelabel chosen in the lookup', async () => {
    await chooseOption(page, page.getByLabel('Whitelabel ID'), /acme/);
    await page.getByRole('button', { name: 'Reload builds for wl' }).click();
    await page.getByRole('log', { name: 'Console' }).getByText(/Reload builds for acme: 1 build on disk, 0 new/).waitFor();
  });

  it('keeps the last message of every whitelabel after a job for one, and shows its whole history on hover', async () => {
    const status = (wl: string) => region('Update statuses').getByTestId(`wl-status-${wl}`);
    await status('acme').getByText(/1 build reloaded$/).waitFor();
    expect(await status('zeta').textContent()).toMatch(/zeta.*1 build checked$/);
    await status('acme').hover();
    const history = page.getByRole('tooltip');
    await history.getByText(/2 builds reloaded$/).waitFor();
    expect((await history.getByTestId('wl-status-message').allInnerTexts()).map((line) => line.replace(/^\d\d:\d\d:\d\d /, ''))).toEqual([
      '2 builds reloaded',
      '2 builds checked, 1 unavailable',
      '1 build reloaded',
    ]);
  });

  it("keeps each whitelabel's build errors until that whitelabel's own reload: reloading zeta clears zeta's, not acme's", async () => {
    rmSync(join(server.dataDir, 'builds', 'zeta', 'tizen', '1.0.0', '1080p', 'app.js'));
    await page.getByRole('button', { name: 'Update builds statuses' }).click();
    const errors = (wl: string) => region('Last build processing errors').getByTestId(`wl-errors-${wl}`);
    await errors('zeta').getByText(/missing/).waitFor();
    await errors('acme').getByText(/missing/).waitFor();
    dropBuild(server, ['zeta', 'tizen', '1.0.0', '1080p']);
    await chooseOption(page, page.getByLabel('Whitelabel ID'), /zeta/);
    await page.getByRole('button', { name: 'Reload builds for wl' }).click();
    await page.getByRole('log', { name: 'Console' }).getByText(/Reload builds for zeta: 1 build on disk, 0 new, 0 unavailable/).waitFor();
    await errors('zeta').waitFor({ state: 'detached' });
    expect(await errors('acme').textContent()).toMatch(/acme-webos-1\.0\.0-1080p.*missing/);
  });

  it('shows one notice per request: a second Reload builds replaces the first notice instead of stacking under it', async () => {
    const notices = page.getByTestId('notice').filter({ hasText: 'Reload builds request status' });
    const button = page.getByRole('button', { name: 'Reload builds', exact: true });
    const reloads = async () => ((await page.getByRole('log', { name: 'Console' }).innerText()).match(/ Reload builds: /g) ?? []).length;
    const before = await reloads();
    await button.click();
    await notices.first().waitFor();
    await button.click();
    // The second answer has come when its console line has and the button is enabled again (its notice is shown then).
    await expect.poll(reloads).toBe(before + 2);
    await expect.poll(() => button.isEnabled()).toBe(true);
    expect(await notices.count()).toBe(1);
  });
});
