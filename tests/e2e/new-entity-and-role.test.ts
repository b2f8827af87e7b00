// Done-when of issue 13, client half end to end: a new entity (gadget.json) and a new role (auditor in
// roles.json) are written only in a temporary copy of schemas/; the panel is built from that folder
// (SCHEMAS_DIR) into a folder of its own, and the real server serves it (SCHEMAS_DIR, DIST_DIR). In Chromium
// the auditor sees the Gadgets menu entry and list and is sent to its home, and the admin adds a gadget
// through the form the engine generates. (tests/server/new-entity-and-role.test.ts checks the server half.)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';
import { schemasWithGadgets } from '../fixtures/new-entity-and-role.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const AUDITOR = { email: 'auditor@example.com', password: 'auditor-password-1' };

/** `vite build` of the panel from `schemasDir` into `outDir`; rejects with the build's output when it fails. */
function buildPanel(schemasDir: string, outDir: string): Promise<void> {
  return new Promise((ok, fail) => {
    let output = '';
    const child = spawn('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
      cwd: ROOT,
      env: { ...process.env, SCHEMAS_DIR: schemasDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`vite build exited ${code}:\n${output}`))));
  });
}

describe('a new entity and a new role from schemas/ files only, in the built panel', () => {
  const work = mkdtempSync(join(tmpdir(), 'panel-new-entity-'));
  const schemasDir = join(work, 'schemas');
  const distDir = join(work, 'dist');
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    schemasWithGadgets(schemasDir);
    [, browser] = await Promise.all([buildPanel(schemasDir, distDir), launchBrowser()]);
    server = await startServer({ SCHEMAS_DIR: schemasDir, DIST_DIR: distDir });
    const admin = await server.login();
    const created = await server.api('GET', '/v1/admin/user/add', { ...AUDITOR, role: 'auditor' }, admin);
    expect(created.result).toBe(true);
    expect((await server.api('POST', '/v1/gadget/add', { name: 'Remote', weight: 120 }, admin)).result).toBe(true);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows the auditor the Gadgets menu entry and list, and sends it home from a screen it may not open', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1024, height: 700 } })).newPage();
    await loginThroughScreen(page, server, AUDITOR.email, AUDITOR.password);
    const menu = page.getByRole('link', { name: 'Gadgets' });
    await menu.waitFor();
    // The only screen the auditor may open is its menu entry.
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Platforms' }).count()).toBe(0);
    await menu.click();
    await page.waitForURL((url) => url.pathname === '/gadgets');
    await page.getByRole('heading', { name: /Gadgets/ }).waitFor();
    await page.locator('.MuiDataGrid-row', { hasText: 'Remote' }).waitFor();
    // The list's create action is the admin's only: no Add button for the auditor.
    expect(await page.getByRole('button', { name: 'Add' }).count()).toBe(0);

    await page.goto(`${server.url}/users`);
    await page.waitForURL((url) => url.pathname === '/gadgets');
    await page.getByRole('heading', { name: /Gadgets/ }).waitFor();
  });

  it('lets the admin add a gadget through the generated form', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await loginThroughScreen(page, server);
    // The admin's bar is full: the new entry is under "More".
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Gadgets' }).click();
    await page.waitForURL((url) => url.pathname === '/gadgets');
    await page.getByRole('heading', { name: /Gadgets/ }).waitFor();
    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Dongle');
    await dialog.getByLabel('Weight').fill('15');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.locator('.MuiDataGrid-row', { hasText: 'Dongle' });
    await row.waitFor();
    expect(await row.textContent()).toContain('15');
  });
});
