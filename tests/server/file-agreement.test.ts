// Stored files and rows agree, whatever happens: the server process is killed (SIGKILL) in the middle of
// whitelabel adds, edits and deletes, restarted, and then every row names files that exist and hold what its
// last committed write sent, no file exists that no row names, and the staging folder is empty. Deleting a
// whitelabel also removes the folder its CSS lived in.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plainPng } from '../../scripts/lib/png.ts';
import { CSS, whitelabelForm } from './catalogue-fixtures.ts';
import { DIALECTS, forEachDialect, freshPostgresDatabase, multipartBody } from './harness.ts';
import { seededRandom } from './hostile.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const HD = plainPng(1280, 720);
const FHD = plainPng(1920, 1080);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Files under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/**
 * One client's loop: add a whitelabel, edit it a few times (new CSS and feUrl together), delete it, again.
 * `acknowledged` is called after each add the server answered with success.
 */
async function writeLoop(server: ServerProcess, token: string, client: number, running: () => boolean, acknowledged: () => void) {
  const send = (path: string, form: Record<string, string | { filename: string; content: Buffer | string; type?: string }>) => {
    const body = multipartBody(form);
    return fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: token, 'content-type': body.contentType }, body: new Uint8Array(body.payload) })
      .then((r) => r.json() as Promise<{ result: boolean; data?: { id: number } }>);
  };
  // Each write sends a CSS file that carries the same mark as its feUrl: the file shows which write it came from.
  const sheet = (mark: string) => ({ filename: 'index.css', content: `${CSS}/* ${mark} */\n`, type: 'text/css' });
  for (let round = 0; running(); round++) {
    const name = `c${client}x${round}x${Date.now()}`;
    const added = await send('/v1/admin/whitelabel/add', { ...whitelabelForm(name, { cssConfig: sheet(`${name}-0`) }), feUrl: `https://x.example.com/${name}-0` }).catch(() => undefined);
    if (!added?.result) continue;
    acknowledged();
    for (let edit = 1; edit <= 3 && running(); edit++) {
      await send('/v1/admin/whitelabel/edit', {
        id: String(added.data!.id),
        feUrl: `https://x.example.com/${name}-${edit}`,
        cssConfig: sheet(`${name}-${edit}`),
        imageHD: { filename: 'hd.png', content: HD, type: 'image/png' },
        imageFHD: { filename: 'fhd.png', content: FHD, type: 'image/png' },
      }).catch(() => undefined);
    }
    if (round % 2) await fetch(`${server.url}/v1/admin/whitelabel/destroy?id=${added.data!.id}&name=${name}`, { headers: { authorization: token } }).catch(() => undefined);
  }
}

for (const dialect of DIALECTS) {
  describe(`files and rows after SIGKILL during writes (${dialect})`, () => {
    it('leaves every row naming files that exist and hold its last write, no file that no row names, and nothing in staging', async () => {
      const random = seededRandom(dialect === 'sqlite' ? 11 : 12);
      const dataDir = mkdtempSync(join(tmpdir(), 'panel-crash-'));
      const fresh = dialect === 'postgres' ? await freshPostgresDatabase() : undefined;
      const env: Record<string, string> = fresh ? { DATABASE_URL: fresh.url } : {};
      let server: ServerProcess | undefined;
      try {
        for (let kill = 0; kill < 2; kill++) {
          server = await startServerProcess(dataDir, env);
          const token = await server.login();
          let running = true;
          let added = 0;
          const loops = Promise.all([1, 2, 3, 4].map((client) => writeLoop(server!, token, client, () => running, () => added++)));
          // The kill comes at a random time once writes are going through: on a busy machine the first ones can take
          // longer than the whole random window, and a kill before any was stored would leave nothing to check.
          for (const giveUp = Date.now() + 30_000; added === 0 && Date.now() < giveUp; ) await sleep(20);
          await sleep(300 + random() * 700);
          await server.kill();
          running = false;
          await loops;
        }
        server = await startServerProcess(dataDir, env);
        const token = await server.login();
        const list = (await (await fetch(`${server.url}/v1/admin/whitelabel/get?pageSize=1000`, { headers: { authorization: token } })).json()) as {
          data: { rows: { name: string; feUrl: string; imageHD: string; imageFHD: string; cssConfig: string }[] };
        };
        const rows = list.data.rows;
        expect(rows.length).toBeGreaterThan(0);
        const named: string[] = [];
        for (const row of rows) {
          for (const url of [row.imageHD, row.imageFHD, row.cssConfig]) {
            named.push(url.replace('/whitelabels/', ''));
            expect(existsSync(join(dataDir, url)), `${row.name} names ${url}`).toBe(true);
          }
          const css = await readFile(join(dataDir, row.cssConfig), 'utf8');
          expect(css, `${row.name}'s CSS comes from its last committed write`).toContain(`/* ${row.feUrl.split('/').pop()} */`);
        }
        expect(filesUnder(join(dataDir, 'whitelabels'))).toEqual(named.sort());
        expect(readdirSync(join(dataDir, '.staging'))).toEqual([]);
      } finally {
        await server?.stop();
        await fresh?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
  });
}

forEachDialect('deleting a whitelabel', (h) => {
  it('removes its files and the folder its CSS lived in, and leaves the other whitelabels\' files', async () => {
    const add = (name: string) => h.call('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm(name), token: h.tokens.admin });
    const gone = (await add('gone')).body.data;
    await add('stays');
    expect(existsSync(join(h.app.engine.dataDir, 'whitelabels', 'gone', 'styles'))).toBe(true);
    const reply = await h.admin('GET', '/v1/admin/whitelabel/destroy', { query: { id: gone.id, name: 'gone' } });
    expect(reply.status).toBe(200);
    expect(existsSync(join(h.app.engine.dataDir, 'whitelabels', 'gone'))).toBe(false);
    expect(filesUnder(join(h.app.engine.dataDir, 'whitelabels'))).toEqual(['stays/styles/indexHtml.css', 'stays_1280x720.png', 'stays_1920x1080.png']);
  });
});

describe('a journal a crash cut short (sqlite)', () => {
  it('lets the server start, and is removed: a write makes no move before its journal is whole on the disk', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'panel-journal-'));
    mkdirSync(join(dataDir, '.staging'));
    // Written by a process that is gone (no pid is that high): one created but never written, one cut mid-way.
    writeFileSync(join(dataDir, '.staging', '2147483646-a.journal'), '');
    writeFileSync(join(dataDir, '.staging', '2147483646-b.journal'), '{"id":"x","moves":[{"target":"/wh');
    const server = await startServerProcess(dataDir);
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(readdirSync(join(dataDir, '.staging'))).toEqual([]);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
