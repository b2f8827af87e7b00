// `npm run backup` while writes are running, then `npm run restore` into an empty place: the copy holds every
// write acknowledged before the backup began, each write with its audit row (a transactionally consistent
// moment, not a torn one), and whitelabel rows whose files exist and hold what that moment's rows say.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CSS, whitelabelForm } from './catalogue-fixtures.ts';
import { ADMIN, DIALECTS, freshPostgresDatabase, multipartBody, startApp } from './harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');

function script(name: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => (code === 0 ? ok(output) : fail(new Error(`${name} exited ${code}: ${output}`))));
  });
}

async function token(app: FastifyInstance) {
  return (await app.inject({ method: 'POST', url: '/v1/user/login', payload: ADMIN })).json().data.token as string;
}

for (const dialect of DIALECTS) {
  describe(`backup and restore (${dialect})`, () => {
    it('backs up during writes a copy that restores with every write acknowledged before it, each with its audit row, and files that agree with the rows', async () => {
      const source = await startApp(dialect, { log: () => {} });
      const backups = mkdtempSync(join(tmpdir(), 'panel-backups-'));
      const restoredDir = mkdtempSync(join(tmpdir(), 'panel-restored-'));
      const restoredDb = dialect === 'postgres' ? await freshPostgresDatabase() : undefined;
      let restored: Awaited<ReturnType<typeof startApp>> | undefined;
      try {
        const headers = { authorization: await token(source.app) };
        const acknowledged: { name: string; at: number }[] = [];
        let running = true;
        const platforms = (async () => {
          for (let i = 0; running; i++) {
            const reply = await source.app.inject({ url: `/v1/admin/platform/add?name=p${i}&maxVersion=1.2.3`, headers });
            if (reply.statusCode === 200) acknowledged.push({ name: `p${i}`, at: Date.now() });
            await new Promise((r) => setImmediate(r)); // inject may resolve without ever letting timers run
          }
        })();
        const whitelabels = (async () => {
          for (let i = 0; running; i++) {
            const mark = `w${i}`;
            const form = multipartBody({
              ...whitelabelForm(mark, { cssConfig: { filename: 'index.css', content: `${CSS}/* ${mark} */`, type: 'text/css' } }),
            });
            await source.app.inject({ method: 'POST', url: '/v1/admin/whitelabel/add', headers: { ...headers, 'content-type': form.contentType }, payload: form.payload });
            await new Promise((r) => setImmediate(r));
          }
        })();
        await new Promise((r) => setTimeout(r, 300));
        const started = Date.now();
        const destination = join(backups, 'copy');
        await script('backup', [destination], { DATA_DIR: source.app.engine.dataDir, DATABASE_URL: source.databaseUrl ?? '' });
        await new Promise((r) => setTimeout(r, 200));
        running = false;
        await Promise.all([platforms, whitelabels]);
        expect(existsSync(join(destination, 'backup.json'))).toBe(true);

        const output = await script('restore', [destination], { DATA_DIR: restoredDir, DATABASE_URL: restoredDb?.url ?? '' });
        expect(output).toContain('Restored');
        restored = await startApp(dialect, { log: () => {}, config: { dataDir: restoredDir, databaseUrl: restoredDb?.url } });
        const db = restored.app.engine.db;
        const names = new Set((await db.selectFrom('platforms').select('name').execute()).map((r) => String(r.name)));
        const before = acknowledged.filter((w) => w.at < started);
        expect(before.length).toBeGreaterThan(0);
        expect(before.filter((w) => !names.has(w.name))).toEqual([]);
        expect(names.size).toBeLessThan(acknowledged.length); // the writes after the backup are not in it
        const audited = await db.selectFrom('user_logs').select((eb) => eb.fn.countAll().as('n')).where('baseUrl', '=', '/v1/admin/platform').where('routePath', '=', 'add').executeTakeFirstOrThrow();
        expect(Number(audited.n)).toBe(names.size);

        const wls = await db.selectFrom('whitelabels').select(['name', 'imageHD', 'imageFHD', 'cssConfig']).execute();
        expect(wls.length).toBeGreaterThan(0);
        const named: string[] = [];
        for (const wl of wls) {
          for (const url of [wl.imageHD, wl.imageFHD, wl.cssConfig] as string[]) {
            named.push(join(restoredDir, url));
            expect(existsSync(join(restoredDir, url)), url).toBe(true);
          }
          expect(await readFile(join(restoredDir, wl.cssConfig as string), 'utf8')).toContain(`/* ${wl.name} */`);
        }
        const files = (readdirSync(join(restoredDir, 'whitelabels'), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name));
        expect(files.sort()).toEqual(named.sort());
        const list = await restored.app.inject({ url: '/v1/admin/platform/get', headers: { authorization: await token(restored.app) } });
        expect(list.json().data.count).toBe(names.size);
      } finally {
        await restored?.app.close();
        await restored?.cleanup();
        await source.app.close();
        await source.cleanup();
        await restoredDb?.drop();
        rmSync(backups, { recursive: true, force: true });
        rmSync(restoredDir, { recursive: true, force: true });
      }
    }, 90_000);
  });
}
