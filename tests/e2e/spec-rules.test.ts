// Rules of the spec seen in the browser across screens: row tones, truncation with the full text on hover,
// exact column names, the tester's builds screen, the builds confirmations, and a write while the server is down.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWhitelabel, dropBuild, showColumn } from './catalogue-helpers';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

const TESTER = { email: 'tester@example.com', password: 'tester-password-1' };

describe('spec rules across screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const token = await server.login();
    await addWhitelabel(server, token, 'acme');
    dropBuild(server, ['acme', 'tizen', '1.0.0', '1080p']);
    dropBuild(server, ['acme', 'webos', '2.0.0-with-a-long-version-name', '1080p']);
    await server.api('GET', '/v1/admin/build/reload', {}, token);
    rmSync(join(server.dataDir, 'builds', 'acme', 'tizen', '1.0.0', '1080p', 'app.js'));
    await server.api('GET', '/v1/admin/build/update', {}, token);
    await server.api('GET', '/v1/admin/testersEmails/add', { email: 'on@lg.com', active: true }, token);
    await server.api('GET', '/v1/admin/testersEmails/add', { email: 'off@lg.com', active: false }, token);
    await server.api('GET', '/v1/admin/user/add', { ...TESTER, role: 'tester' }, token);
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const rowOf = (text: string) => page.locator('.MuiDataGrid-row', { hasText: text });
  const headers = async () => (await page.locator('.MuiDataGrid-columnHeaderTitle').allTextContents()).filter((t) => t !== 'Actions');

  it('shows an unavailable build as warning, and its URLs cut at 40 characters with the full text on hover', async () => {
    await page.goto(`${server.url}/builds`);
    const missing = rowOf('acme-tizen');
    await missing.waitFor();
    expect(await missing.getAttribute('class')).toContain('row-tone-warning');
    expect(await rowOf('acme-webos').getAttribute('class')).not.toContain('row-tone-warning');
    // URLs gives way to Available at this width (priority 5): shown again through the column chooser.
    await showColumn(page, 'URLs');
    const urls = rowOf('acme-webos').locator('[data-field="col2"] [data-truncated]');
    const full = (await urls.getAttribute('aria-label'))!;
    expect(full.length).toBeGreaterThan(40);
    expect(await urls.textContent()).toBe(`${full.slice(0, 40)}…`);
    await urls.hover();
    await page.getByRole('tooltip').getByText(full).waitFor();
  });

  it('asks "Delete all builds?" and keeps the builds on Cancel', async () => {
    await page.goto(`${server.url}/builds`);
    await page.getByRole('button', { name: 'Delete All Builds' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete all builds?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await server.api('GET', '/v1/admin/build/get', {}, await server.login())).data.count).toBe(2);
  });

  it('shows active tester e-mails green under the columns of the spec', async () => {
    await page.goto(`${server.url}/testerEmails`);
    await rowOf('on@lg.com').waitFor();
    expect(await headers()).toEqual(['id', 'Email', 'Email hash', 'Email is active', 'Created', 'Updated']);
    expect(await rowOf('on@lg.com').getAttribute('class')).toContain('row-tone-success');
    expect(await rowOf('off@lg.com').getAttribute('class')).not.toContain('row-tone-success');
  });

  it('shows the users logs under the columns of the spec', async () => {
    await page.goto(`${server.url}/userslogs`);
    await page.locator('.MuiDataGrid-row').first().waitFor();
    expect(await headers()).toEqual(['id', 'User Id', 'Role', 'User email', 'Path to controller', 'Controller method name', 'Created']);
  });

  it('shows the whole deploy configuration when the cut preview is hovered', async () => {
    await page.goto(`${server.url}/whitelabels`);
    const preview = rowOf('acme').locator('[data-truncated]').first();
    expect((await preview.textContent())!.length).toBe(51);
    await preview.hover();
    await page.getByRole('tooltip').getByText(/a deploy configuration longer than fifty characters/).waitFor();
  });

  it('gives a tester the builds without any delete button', async () => {
    const tester = await (await browser.newContext()).newPage();
    await loginThroughScreen(tester, server, TESTER.email, TESTER.password);
    await tester.goto(`${server.url}/builds`);
    await tester.locator('.MuiDataGrid-row', { hasText: 'acme-webos' }).waitFor();
    expect(await tester.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    await tester.close();
  });
});

describe('a write while the server is down', () => {
  it('shows "Network Error" and keeps the modal open', async () => {
    const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    try {
      const page = await browser.newPage();
      await loginThroughScreen(page, server);
      await page.goto(`${server.url}/platforms`);
      await page.getByRole('button', { name: 'Add' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name').fill('offline');
      await dialog.getByLabel('Max version').fill('01.02.03');
      const ok = dialog.getByRole('button', { name: 'OK' });
      expect(await ok.isDisabled()).toBe(false);
      await server.stop();
      await ok.click();
      await page.getByText('Network Error').first().waitFor();
      expect(await dialog.isVisible()).toBe(true);
    } finally {
      await browser.close();
      await server.stop();
    }
  });

  it('puts the stored office IP back in the box after a failed update', async () => {
    const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    try {
      await server.api('POST', '/v1/admin/officeIp/update', { ip: '10.20.30.40' }, await server.login());
      const page = await browser.newPage();
      await loginThroughScreen(page, server);
      await page.goto(`${server.url}/combinations`);
      const box = page.getByLabel('Office IP');
      await page.waitForFunction(() => (document.querySelector('[data-testid="office-ip-box"] input') as HTMLInputElement)?.value === '10.20.30.40');
      await box.fill('10.99.99.99');
      await server.stop();
      await page.getByRole('button', { name: 'Update office IP' }).click();
      await page.getByText('Network Error').first().waitFor();
      await page.waitForFunction(() => (document.querySelector('[data-testid="office-ip-box"] input') as HTMLInputElement)?.value === '10.20.30.40');
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});
