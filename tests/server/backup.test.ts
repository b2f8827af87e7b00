// `npm run backup` while writes are running, then `npm run restore` into an empty place: the copy holds every
// write acknowledged before the backup began, each write with its audit row (a transactionally consistent
// moment, not a torn one), and whitelabel rows whose files exist and hold what that moment's rows say. Beside a
// real server process: the backup works, a restore refuses (and no write the server acknowledges afterwards is
// lost), `--stop-server` stops the server and restores, and a SQLite file replaced under a server takes no write.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CSS, whitelabelForm } from './catalogue-fixtures.ts';
import { ADMIN, DIALECTS, freshPostgresDatabase, multipartBody, startApp } from './harness.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Runs scripts/<name>.ts to its end: its exit code and everything it printed. */
function run(name: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => ok({ code, output }));
  });
}

async function script(name: string, args: string[], env: Record<string, string>): Promise<string> {
  const { code, output } = await run(name, args, env);
  if (code !== 0) throw new Error(`${name} exited ${code}: ${output}`);
  return output;
}

async function addPlatform(server: ServerProcess, token: string, name: string): Promise<boolean> {
  const res = await fetch(`${server.url}/v1/admin/platform/add?name=${name}&maxVersion=1.2.3`, { headers: { authorization: token } });
  return ((await res.json()) as { result: boolean }).result;
}

async function platformNames(server: ServerProcess): Promise<Set<string>> {
  const res = await fetch(`${server.url}/v1/admin/platform/get?pageSize=1000`, { headers: { authorization: await server.login() } });
  return new Set(((await res.json()) as { data: { rows: { name: string }[] } }).data.rows.map((r) => r.name));
}

/** A DATA_DIR (and for PostgreSQL a database of its own) for real server processes, and the scripts' environment. */
async function place(dialect: (typeof DIALECTS)[number]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'panel-lock-'));
  const database = dialect === 'postgres' ? await freshPostgresDatabase() : undefined;
  const backups = mkdtempSync(join(tmpdir(), 'panel-backups-'));
  return {
    dataDir,
    backup: join(backups, 'copy'),
    env: { DATA_DIR: dataDir, DATABASE_URL: database?.url ?? '' },
    async cleanup() {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(backups, { recursive: true, force: true });
    },
  };
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

    it('refuses a restore beside a running server (exit 2, nothing changed), and every write the server acknowledges afterwards is there after its restart', async () => {
      const at = await place(dialect);
      let server: ServerProcess | undefined;
      try {
        server = await startServerProcess(at.dataDir, at.env);
        const token = await server.login();
        expect(await addPlatform(server, token, 'before')).toBe(true);
        expect(await script('backup', [at.backup], at.env)).toContain('Backed up'); // beside the server, which holds the lock shared
        expect(await addPlatform(server, token, 'after')).toBe(true);
        const file = join(at.dataDir, 'panel.sqlite');
        const inode = existsSync(file) ? statSync(file).ino : undefined;

        const refused = await run('restore', [at.backup], at.env);
        expect(refused.code).toBe(2);
        expect(refused.output).toContain(`A server is running on this data (pid ${server.child.pid})`);
        expect(refused.output).toContain('Nothing was changed');
        expect(refused.output).toContain('--stop-server');
        expect(server.alive()).toBe(true);
        if (inode !== undefined) expect(statSync(file).ino).toBe(inode);
        expect(readdirSync(at.dataDir).filter((name) => name.includes('before-restore'))).toEqual([]);

        const acknowledged: string[] = [];
        for (let i = 0; i < 10; i++) if (await addPlatform(server, token, `w${i}`)) acknowledged.push(`w${i}`);
        expect(acknowledged).toHaveLength(10);
        expect(await server.stop()).toBe(0);
        server = await startServerProcess(at.dataDir, at.env);
        const names = await platformNames(server);
        expect(acknowledged.filter((name) => !names.has(name))).toEqual([]); // writes lost: none of 10
        expect(names.has('after')).toBe(true);
      } finally {
        await server?.stop();
        await at.cleanup();
      }
    }, 90_000);

    it('restore --stop-server stops the running server, then restores; a server started after it serves the backup', async () => {
      const at = await place(dialect);
      let server: ServerProcess | undefined;
      try {
        server = await startServerProcess(at.dataDir, at.env);
        const token = await server.login();
        expect(await addPlatform(server, token, 'before')).toBe(true);
        await script('backup', [at.backup], at.env);
        expect(await addPlatform(server, token, 'after')).toBe(true);

        const output = await script('restore', [at.backup, '--stop-server'], at.env);
        expect(output).toContain(`Stopped the server (pid ${server.child.pid}) before restoring`);
        expect(output).toContain('Restored');
        // Its exit reaches this process a moment after the restore saw it gone: the exit event is read on our next turns.
        await expect.poll(() => server!.alive(), { timeout: 10_000 }).toBe(false);
        expect(server.child.exitCode).toBe(0); // its own clean stop, requests finished and the database closed
        server = await startServerProcess(at.dataDir, at.env);
        const names = await platformNames(server);
        expect(names.has('before')).toBe(true);
        expect(names.has('after')).toBe(false);
      } finally {
        await server?.stop();
        await at.cleanup();
      }
    }, 90_000);

    if (dialect === 'sqlite') {
      // PostgreSQL has no file to replace: pg_restore writes into the one database every server uses.
      it('a server whose database file was replaced under it refuses writes with 503 ERR_UNAVAILABLE and says so, and the new file gets none', async () => {
        const lines: string[] = [];
        const { app, cleanup } = await startApp(dialect, { log: (line) => lines.push(line) });
        try {
          const headers = { authorization: await token(app) };
          const add = (name: string) => app.inject({ url: `/v1/admin/platform/add?name=${name}&maxVersion=1.2.3`, headers });
          expect((await add('kept')).statusCode).toBe(200);
          const file = join(app.engine.dataDir, 'panel.sqlite');
          copyFileSync(file, `${file}.other`);
          renameSync(`${file}.other`, file);

          const refused = await add('lost');
          expect(refused.statusCode).toBe(503);
          expect(refused.json()).toMatchObject({ result: false, code: 'ERR_UNAVAILABLE' });
          expect(lines.join('\n')).toContain('DATABASE FILE GONE');
          expect((await add('lost-too')).statusCode).toBe(503);
          const reopened = new (await import('better-sqlite3')).default(file, { readonly: true });
          const names = reopened.prepare('select name from platforms').all().map((r) => (r as { name: string }).name);
          reopened.close();
          expect(names).not.toContain('lost');
        } finally {
          await app.close();
          await cleanup();
        }
      });
    }
  });
}
