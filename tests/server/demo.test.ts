// The demo data command's areas, run through the real routes on both dialects: a newcomer's first minute.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { expect, it } from 'vitest';
import { catalogueAreas, type DemoContext } from '../../scripts/demo/catalogue.ts';
import { demoApi } from '../../scripts/demo/client.ts';
import { forEachDialect } from './harness.ts';
import { startServerProcess } from './server-process.ts';

forEachDialect('demo data', (h) => {
  it('fills an empty database with a catalogue whose every screen has rows', async () => {
    const ctx: DemoContext = { api: await demoApi(h.app, h.tokens.admin), ids: {} };
    for (const [, fill] of catalogueAreas) await fill(ctx);
    const counts = Object.fromEntries(
      await Promise.all(
        ['whitelabels', 'platforms', 'builds', 'combinations', 'app_versions_on_test', 'installations', 'tech_support', 'localisations', 'wl_configs'].map(
          async (t) => [t, await h.count(t)],
        ),
      ),
    );
    expect(counts).toEqual({
      whitelabels: 3, platforms: 3, builds: 18, combinations: 5, app_versions_on_test: 2, installations: 3, tech_support: 3, localisations: 3, wl_configs: 3,
    });
    const unavailable = await h.admin('GET', '/v1/admin/build/get', { query: { ownWhitelabel: 'kinomax', ownPlatform: 'androidtv', ownVersion: '1.20.33' } });
    expect(unavailable.body.data.rows[0].isAvailable).toBe(false);
    expect((await h.app.inject({ url: '/whitelabels/aurora_1920x1080.png' })).statusCode).toBe(200);
    expect((await h.admin('GET', '/v1/admin/officeIp/get')).body.data.ip).toBe('10.20.30.40');
  });
});

// The command itself, as a newcomer runs it: it calls the routes in-process, with no socket keeping the process alive,
// so a worker it waits on must keep it alive (the tester IP import's once did not: exit code 13 after "WL configs").
it('`npm run demo` fills an empty SQLite database to the end and exits 0', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'demo-command-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_EMAIL: 'demo-admin@test.io', ADMIN_PASSWORD: 'demo-password-1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toContain('demo: app info, experiment users and achieved goals');
    expect(output).toMatch(/Demo data is in .*\. Log in as demo-admin@test\.io/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);

/** Runs `npm run demo`'s script with the given environment; resolves to its exit code and output. */
function runDemo(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

it('`npm run demo` beside a running server needs only the database settings, and the server shows what it wrote', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'demo-beside-'));
  const server = await startServerProcess(dataDir);
  try {
    const env = { ...process.env } as Record<string, string>;
    delete env.ADMIN_EMAIL;
    delete env.ADMIN_PASSWORD;
    const { code, output } = await runDemo({ ...env, DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(code, output).toBe(0);
    expect(output).toMatch(/Demo data is in .*\. Log in as admin@test\.io/);
    const token = await server.login();
    const listed = await fetch(`${server.url}/v1/admin/whitelabel/get`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await listed.json()) as { data: { count: number } }).data.count).toBe(3);
    // The demo's own session ended with it: the one session left is the login just made.
    const db = new SQLite(join(dataDir, 'panel.sqlite'), { readonly: true });
    try {
      expect(db.prepare('select count(*) as n from auth_tokens').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
