// An admin adds a whitelabel with its logos and CSS through the form, and edits it: files may be left out
// only while the stored assets are reachable, otherwise the spec's Russian errors show.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainPng } from '../../scripts/lib/png.ts';
import { CSS, shot } from './catalogue-helpers';
import { launchBrowser, loginThroughScreen, startServer, type RunningServer } from './harness';

describe('an admin manages whitelabels and their assets through the screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const files = { hd: join(tmpdir(), 'e2e-hd.png'), fhd: join(tmpdir(), 'e2e-fhd.png'), css: join(tmpdir(), 'e2e-index.css') };

  beforeAll(async () => {
    writeFileSync(files.hd, plainPng(1280, 720, [30, 80, 160]));
    writeFileSync(files.fhd, plainPng(1920, 1080, [30, 80, 160]));
    writeFileSync(files.css, CSS);
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await loginThroughScreen(page, server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const rowOf = (name: string) => page.locator('.MuiDataGrid-row', { hasText: name });
  const errors = () => dialog().getByTestId('whitelabel-errors');

  it('lists every missing field and file under the spec\'s heading when OK is pressed on an empty form', async () => {
    await page.goto(`${server.url}/whitelabels`);
    await page.getByRole('heading', { name: /Whitelabels/ }).waitFor();
    await page.getByRole('button', { name: 'Add' }).click();
    await dialog().getByRole('button', { name: 'OK' }).click();
    await errors().waitFor();
    expect(await errors().innerText()).toBe(
      [
        'Пожалуйста исправьте указанные ошибки:',
        'Требуется указать Name',
        'Требуется указать FE URL',
        'Требуется указать Deploy configuration',
        'Требуется загрузить изображение 1280x720',
        'Требуется загрузить изображение 1920x1080',
        'Требуется загрузить CSS',
      ].join('\n'),
    );
    await shot(page, 'whitelabel-form-errors');
  });

  it('adds a whitelabel with both logos and the CSS, served at the asset URLs', async () => {
    await dialog().getByLabel('Name').fill('acme');
    await dialog().getByLabel('FE URL').fill('https://acme.example.com/');
    await dialog().getByTestId('pick-imageHD').setInputFiles(files.hd);
    await dialog().getByTestId('pick-imageFHD').setInputFiles(files.fhd);
    await dialog().getByTestId('pick-cssConfig').setInputFiles(files.css);
    await dialog().getByLabel('Deploy configuration (JSON object)').fill('{"region": "eu", "replicas": 2, "cdn": "https://cdn.example.com/acme"}');
    await dialog().getByRole('button', { name: 'OK' }).click();
    await page.getByText('Add request status').waitFor();
    await dialog().waitFor({ state: 'detached' });
    await rowOf('acme').waitFor();
    const logo = await fetch(`${server.url}/whitelabels/acme_1280x720.png`);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${server.url}/whitelabels/acme/styles/indexHtml.css`)).status).toBe(200);
  });

  it('shows the deploy configuration cut at 50 characters and links the logos and CSS in the details', async () => {
    expect(await rowOf('acme').textContent()).toContain('{"region":"eu","replicas":2,"cdn":"https://cdn.exa…');
    await rowOf('acme').getByRole('button', { name: /details/i }).click();
    const links = page.locator('a[href$="/whitelabels/acme_1280x720.png"], a[href$="/whitelabels/acme_1920x1080.png"], a[href$="/whitelabels/acme/styles/indexHtml.css"]');
    await links.first().waitFor();
    expect(await links.count()).toBe(3);
    await shot(page, 'whitelabels');
  });

  it('saves an edit without files while the stored assets are reachable', async () => {
    await rowOf('acme').getByRole('button', { name: 'Edit' }).click();
    await dialog().getByLabel('FE URL').fill('https://new.acme.example.com/');
    await dialog().getByRole('button', { name: 'OK' }).click();
    await page.getByText('Edit request status').waitFor();
    await dialog().waitFor({ state: 'detached' });
    await rowOf('new.acme.example.com').waitFor();
  });

  it('says as the edit opens which stored asset is gone, and requires it again on OK', async () => {
    rmSync(join(server.dataDir, 'whitelabels/acme_1280x720.png'));
    await rowOf('acme').getByRole('button', { name: 'Edit' }).click();
    // Before OK: each stored asset's state, the missing one with the spec's error at its picker.
    await dialog().getByTestId('file-imageHD').getByText('Требуется загрузить изображение 1280x720').waitFor();
    expect(await dialog().getByTestId('file-imageFHD').innerText()).toBe('Keeping the stored file');
    expect(await dialog().getByTestId('file-cssConfig').innerText()).toBe('Keeping the stored file');
    expect(await dialog().getByText('Keeping the stored file').count()).toBe(2);
    await dialog().getByRole('button', { name: 'OK' }).click();
    await errors().waitFor();
    expect(await errors().innerText()).toBe(['Пожалуйста исправьте указанные ошибки:', 'Требуется загрузить изображение 1280x720'].join('\n'));
    await shot(page, 'whitelabel-edit-missing-asset');
    await dialog().getByTestId('pick-imageHD').setInputFiles(files.hd);
    await dialog().getByRole('button', { name: 'OK' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect((await fetch(`${server.url}/whitelabels/acme_1280x720.png`)).status).toBe(200);
  });

  it('keeps the modal open with the server\'s message when a logo has the wrong size', async () => {
    await rowOf('acme').getByRole('button', { name: 'Edit' }).click();
    await dialog().getByTestId('pick-imageFHD').setInputFiles(files.hd);
    await dialog().getByRole('button', { name: 'OK' }).click();
    await dialog().getByTestId('form-error').waitFor();
    expect(await dialog().getByTestId('form-error').innerText()).toContain('Logo 1920x1080 (PNG) is a 1280x720 image; it must be 1920x1080');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('clears the max version when its field is emptied on edit', async () => {
    const token = await server.login();
    const id = (await server.api('GET', '/v1/admin/whitelabel/get', {}, token)).data.rows[0].id;
    const form = new FormData();
    form.append('id', String(id));
    form.append('maxVersion', '01.20.34');
    await fetch(`${server.url}/v1/admin/whitelabel/edit`, { method: 'POST', headers: { Authorization: token }, body: form });
    await page.reload();
    await rowOf('01.20.34').waitFor();
    await rowOf('acme').getByRole('button', { name: 'Edit' }).click();
    const version = dialog().getByLabel('Max version');
    await version.fill('');
    await dialog().getByRole('heading', { name: 'Edit whitelabel' }).click();
    expect(await version.inputValue()).toBe('');
    await dialog().getByRole('button', { name: 'OK' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect((await server.api('GET', '/v1/admin/whitelabel/get', {}, token)).data.rows[0].maxVersion).toBeNull();
  });
});
