// Issue 11 in Chromium against the real server: the panel works under its strict CSP (a runtime eval in the
// form validators, the grid or the import worker would be refused and reported), a stale edit is refused and
// the form offers to reload the record, and a session that ends takes the SPEC 8 path ("You need to login again").
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, chooseOption, launchBrowser, loginThroughScreen, type RunningServer, startServer } from './harness';

const SECOND = { email: 'second@example.com', password: 'second-password-1' };

/** Records every CSP violation the page reports, from before its first script runs. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|unsafe-eval|EvalError/i.test(message.text())) console.push(message.text());
  });
  return async () => [...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)), ...console];
}

describe('the panel under its Content-Security-Policy, with two admins', () => {
  let server: RunningServer;
  let browser: Browser;
  let second: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const admin = await server.login();
    await server.api('GET', '/v1/admin/user/add', { ...SECOND, role: 'admin' }, admin);
    second = await server.login(SECOND.email, SECOND.password);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('loads, validates and saves a form, and imports a file in its worker, without a single violation', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    const violations = await watchCsp(page);
    const response = await page.goto(`${server.url}/login`);
    const csp = response!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();

    await page.goto(`${server.url}/testerIP`);
    await page.getByRole('heading', { name: /Tester IP addresses/ }).waitFor();
    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog');
    await chooseOption(page, dialog.getByLabel('Vendor'), 'lg');
    const ok = dialog.getByRole('button', { name: 'OK' });
    // The format check runs in the validator: a bad address keeps OK disabled and says why.
    await dialog.getByLabel(/^IP/).fill('300.1.1.1');
    await dialog.getByText(/must be an IPv4 address/).waitFor();
    expect(await ok.isDisabled()).toBe(true);
    await dialog.getByLabel(/^IP/).fill('10.9.8.7');
    await page.waitForFunction(() => !(document.querySelector('[role=dialog] button:last-of-type') as HTMLButtonElement | null)?.disabled);
    await ok.click();
    await page.getByText('Add request status').waitFor();
    await page.locator('.MuiDataGrid-row', { hasText: '10.9.8.7/32' }).waitFor();

    await page.getByRole('button', { name: 'Import from file' }).click();
    await chooseOption(page, dialog.getByLabel('Vendor'), 'samsung');
    await dialog.getByLabel('IP list file').setInputFiles({ name: 'ips.txt', mimeType: 'text/plain', buffer: Buffer.from('10.1.0.1~10.1.0.4\n') });
    await dialog.getByText('3 addresses to add from ips.txt').waitFor();

    expect(await violations()).toEqual([]);
  });

  it('refuses the stale save, names who changed the record, and reloads it into the form on request', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await loginThroughScreen(page, server);
    const added = await server.api('GET', '/v1/admin/platform/add', { name: 'contested', maxVersion: '01.00.00' }, second);
    await page.goto(`${server.url}/platforms`);
    const row = page.locator('.MuiDataGrid-row', { hasText: 'contested' });
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    const maxVersion = dialog.getByLabel('Max version');
    await maxVersion.waitFor();

    const theirs = await server.api('GET', '/v1/admin/platform/edit', { id: added.data.id, maxVersion: '02.00.00', updatedAt: added.data.updatedAt }, second);
    expect(theirs.result).toBe(true);

    await maxVersion.fill('03.00.00');
    await dialog.getByRole('button', { name: 'OK' }).click();
    const error = dialog.getByTestId('form-error');
    await error.waitFor();
    expect(await error.textContent()).toContain(`was changed by ${SECOND.email}`);
    await dialog.getByTestId('stale-edit').getByRole('button', { name: 'Reload' }).click();
    await page.waitForFunction(() => (document.querySelector('[role=dialog] input[id$=maxVersion]') as HTMLInputElement | null)?.value === '02.00.00');
    expect(await dialog.getByTestId('form-error').count()).toBe(0);

    await dialog.getByLabel('Max version').fill('03.00.00');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.MuiDataGrid-row', { hasText: '03.00.00' }).waitFor();
    const stored = await server.api('GET', '/v1/admin/platform/get', { pageSize: 100 }, second);
    expect(stored.data.rows.find((r: { id: number }) => r.id === added.data.id).maxVersion).toBe('03.00.00');
  });
});

describe('a session that ends', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ SESSION_IDLE_TIMEOUT: '3s' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('left idle on the dashboard, says "You need to login again" and goes to the login screen, the cookie still a year long', async () => {
    const page = await (await browser.newContext()).newPage();
    await loginThroughScreen(page, server);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'Authorization');
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(31536000 - 3600);
    const notice = page.getByTestId('notice').filter({ hasText: 'You need to login again' });
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toContain('Error');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('with an expired stored token, the first call takes the same path', async () => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await loginThroughScreen(first, server);
    // The tab is closed while the session runs out; the token stays in the browser's storage.
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 3500));
    const page = await context.newPage();
    await page.goto(`${server.url}/platforms`);
    await page.getByTestId('notice').filter({ hasText: 'You need to login again' }).waitFor();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
