// The Pipelines screen in Chromium against the real server and the fake GitLab: a tester runs a pipeline and
// watches its row turn from running (warning) to success (green) without reloading the page, opens its
// statuses modal; the admin's dashboard console shows the builds reload that follows; a panel without GitLab
// says which variables to set.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitlab, type FakeGitlab } from '../../scripts/fake-gitlab.ts';
import { addWhitelabel, shot } from './catalogue-helpers';
import { chooseOption, launchBrowser, loginThroughScreen, type RunningServer, startServer } from './harness';

const TESTER = { email: 'tess@example.com', password: 'tester-password-1' };
const TOKEN = 'glpat-e2e-token';
const SECRET = 'e2e-webhook-secret';

describe('the Pipelines screen', () => {
  let fake: FakeGitlab;
  let server: RunningServer;
  let bare: RunningServer;
  let browser: Browser;
  let page: Page;
  let dashboard: Page;

  beforeAll(async () => {
    fake = await startFakeGitlab({ token: TOKEN, webhookSecret: SECRET });
    const gitlab = { GITLAB_URL: fake.url, GITLAB_TOKEN: TOKEN, GITLAB_PROJECT_ID: '42', GITLAB_WEBHOOK_SECRET: SECRET, GITLAB_POLL_SECONDS: '600' };
    [server, bare, browser] = await Promise.all([startServer(gitlab), startServer(), launchBrowser()]);
    fake.webhookUrl = `${server.url}/v1/gitlab/webhook`;
    fake.buildsDir = join(server.dataDir, 'builds');
    const admin = await server.login();
    await addWhitelabel(server, admin, 'acme');
    const made = await server.api('GET', '/v1/admin/user/add', { ...TESTER, role: 'tester' }, admin);
    if (!made.result) throw new Error(made.message);
    dashboard = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await loginThroughScreen(dashboard, server);
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await loginThroughScreen(page, server, TESTER.email, TESTER.password);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), bare?.stop()]);
    await fake?.close();
  });

  const rowOf = (text: string) => page.getByRole('row').filter({ hasText: text });

  it('lets a tester run a pipeline only with a whitelabel and a version X.X.X', async () => {
    await page.getByRole('button', { name: 'Combinations' }).click();
    await page.getByRole('menuitem', { name: 'Pipelines' }).click();
    await page.getByRole('heading', { name: 'Pipelines' }).waitFor();
    const runButton = page.getByRole('button', { name: 'Run pipeline' });
    expect(await runButton.isDisabled()).toBe(true);
    await chooseOption(page, page.getByLabel('Whitelabel', { exact: true }), /acme/);
    await page.getByLabel('Version').fill('1.2');
    expect(await runButton.isDisabled()).toBe(true);
    await page.getByLabel('Version').fill('1.2.3');
    expect(await runButton.isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Reload builds for wl' }).isEnabled()).toBe(true);
  });

  it('shows the new pipeline, then turns its row from running (warning) to success (green) live, without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.getByRole('button', { name: 'Run pipeline' }).click();
    await page.getByText('Run pipeline request status').waitFor();
    const pipeline = [...fake.pipelines.values()].at(-1)!;
    const row = rowOf(String(pipeline.id));
    await row.getByText('pending').waitFor();
    expect(await row.getAttribute('class')).toContain('row-tone-warning');
    await fake.setStatus(pipeline.id, 'running');
    await row.getByText('running').waitFor();
    expect(await row.getAttribute('class')).toContain('row-tone-warning');
    await shot(page, 'pipelines-tester-running-1440');
    await fake.setStatus(pipeline.id, 'success');
    await row.getByText('success').waitFor();
    expect(await row.getAttribute('class')).toContain('row-tone-success');
    expect(await row.textContent()).toContain('1.2.3');
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await shot(page, 'pipelines-tester-success-1440');
  });

  it('reloads the builds of that whitelabel after the success, with its progress on the dashboard console', async () => {
    const console = dashboard.getByRole('log', { name: 'Console' });
    await console.getByText(/succeeded: reloading the builds of acme/).waitFor();
    await console.getByText(/Reload builds for acme: 2 builds on disk, 2 new/).waitFor();
    const builds = await server.api('GET', '/v1/admin/build/get', { ownWhitelabel: 'acme' }, await server.login());
    expect(builds.data.rows.map((b: { name: string }) => b.name).sort()).toEqual(['acme-tizen-1.2.3-1080p', 'acme-webos-1.2.3-1080p']);
  });

  it('opens the statuses modal: the jobs with stage, name, status and duration, from GitLab', async () => {
    const pipeline = [...fake.pipelines.values()].at(-1)!;
    await rowOf(String(pipeline.id)).getByRole('button', { name: 'Statuses' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Pipeline ${pipeline.id} · acme 1.2.3` }).waitFor();
    const jobs = dialog.getByRole('table', { name: 'Jobs' });
    await jobs.getByRole('row').filter({ hasText: 'build:tizen' }).waitFor();
    expect(await jobs.getByRole('row').count()).toBe(5);
    const lint = jobs.getByRole('row').filter({ hasText: 'lint' });
    expect(await lint.textContent()).toMatch(/^testlintsuccess[\d.]+ s$/);
    await page.setViewportSize({ width: 1024, height: 768 });
    await shot(page, 'pipelines-tester-statuses-1024');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await shot(page, 'pipelines-tester-1024');
  });

  it('says plainly when GitLab is not configured, and which variables to set', async () => {
    const other = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await loginThroughScreen(other, bare);
    await other.goto(`${bare.url}/pipelines`);
    const alert = other.getByTestId('gitlab-not-configured');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('GitLab is not configured: set GITLAB_URL, GITLAB_TOKEN, GITLAB_PROJECT_ID, GITLAB_WEBHOOK_SECRET');
    expect(await other.getByRole('button', { name: 'Run pipeline' }).count()).toBe(0);
    await shot(other, 'pipelines-admin-not-configured-1440');
  });
});
