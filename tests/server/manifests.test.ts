// Manifest loading: a broken schemas/ file stops the start with a message naming the file and JSON path.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadManifestDir } from '../../server/manifests.ts';
import { ManifestError } from '../../kernel/manifest/validate.ts';
import { DIALECTS, startApp } from './harness.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function schemasWith(file: string, edit: (json: any) => unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
  dirs.push(dir);
  cpSync('schemas', dir, { recursive: true });
  const json = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const edited = edit(json);
  writeFileSync(join(dir, file), typeof edited === 'string' ? edited : JSON.stringify(json));
  return dir;
}

it('loads every manifest of schemas/', () => {
  expect(loadManifestDir('schemas').map((m) => m.entity)).toEqual(expect.arrayContaining(['platform', 'testerEmail', 'user', 'userlog', 'version']));
});

it('names the file and the JSON path of a role outside the four', () => {
  const dir = schemasWith('platform.json', (j) => void (j.actions.list.roles = ['boss']));
  expect(() => loadManifestDir(dir)).toThrow(ManifestError);
  expect(() => loadManifestDir(dir)).toThrow(/platform\.json at \/actions\/list\/roles\/0/);
});

it('refuses an action without roles unless it is public, and a public action that is not custom or lists roles', () => {
  const empty = schemasWith('platform.json', (j) => void (j.actions.list.roles = []));
  expect(() => loadManifestDir(empty)).toThrow(/platform\.json at \/actions\/list\/roles: must NOT have fewer than 1 items/);
  const publicList = schemasWith('platform.json', (j) => void Object.assign(j.actions.list, { public: true, roles: [] }));
  expect(() => loadManifestDir(publicList)).toThrow(/platform\.json at \/actions\/list\/kind: must be equal to constant/);
  const publicWithRoles = schemasWith('combination.json', (j) => void (j.actions.lookup.roles = ['admin']));
  expect(() => loadManifestDir(publicWithRoles)).toThrow(/combination\.json at \/actions\/lookup\/roles: must NOT have more than 0 items/);
});

for (const dialect of DIALECTS) {
  it(`stops the start when a public action names a staff handler, or a device handler serves a staff action (${dialect})`, async () => {
    const staffHandler = schemasWith('combination.json', (j) => void (j.actions.lookup.handler = 'versions.list'));
    await expect(startApp(dialect, { config: { schemasDir: staffHandler } })).rejects.toThrow(/combination\.actions\.lookup \(\/v1\/combination\/get\): handler "versions\.list" is not a device handler, the action is public/);
    const notPublic = schemasWith('combination.json', (j) => void Object.assign(j.actions.lookup, { public: undefined, roles: ['admin'] }));
    await expect(startApp(dialect, { config: { schemasDir: notPublic } })).rejects.toThrow(/handler "combination\.lookup" is a device handler, the action is not public/);
  });
}

it('names the file and the JSON path of a column that is not a record field', () => {
  const dir = schemasWith('user.json', (j) => void (j.list.columns[1].field = 'nickname'));
  expect(() => loadManifestDir(dir)).toThrow(/user\.json at \/list\/columns\/1\/field: field "nickname"/);
});

it('names the file of a manifest that is not JSON', () => {
  const dir = schemasWith('testerEmail.json', () => '{ "entity": ');
  expect(() => loadManifestDir(dir)).toThrow(/testerEmail\.json at \/: not valid JSON/);
});

it('refuses two actions on the same method and path', () => {
  const dir = schemasWith('platform.json', (j) => void (j.actions.list.path = '/v1/admin/user/get'));
  expect(() => loadManifestDir(dir)).toThrow(/\/actions\/list\/path: GET \/v1\/admin\/user\/get is also declared/);
});

for (const dialect of DIALECTS) {
  it(`stops the server start on a broken manifest (${dialect})`, async () => {
    const dir = schemasWith('platform.json', (j) => void delete j.actions.list.roles);
    await expect(startApp(dialect, { config: { schemasDir: dir } })).rejects.toThrow(/platform\.json at \/actions\/list: missing key "roles"/);
  });

  it(`creates tables and indexes again without harm on a second start (${dialect})`, async () => {
    const first = await startApp(dialect);
    await first.app.close();
    const second = await startApp(dialect, { config: { databaseUrl: first.databaseUrl } });
    expect((await second.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await second.app.close();
    await second.cleanup();
    await first.cleanup();
  });
}
