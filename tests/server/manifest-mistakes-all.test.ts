// A schemas folder with several mistakes reports all of them in one error, from the server start and from the
// build alike, so that three mistakes cost one round, not three.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { loadManifestDir } from '../../server/manifests.ts';
import { DIALECTS, startApp } from './harness.ts';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A temporary copy of schemas/ with several files edited. */
function schemasWith(edits: Record<string, (json: any) => void>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mistakes-'));
  dirs.push(dir);
  cpSync('schemas', dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    edit(json);
    writeFileSync(join(dir, file), JSON.stringify(json, null, 2));
  }
  return dir;
}

/** Three mistakes of three kinds in three files: a registry name, a field that does not exist, a role's home. */
const threeMistakes = () =>
  schemasWith({
    'goal.json': (j) => (j.list.columns[0].cell = 'bool'),
    'platform.json': (j) => (j.record.required = [...(j.record.required ?? []), 'nosuchfield']),
    'roles.json': (j) => (j.roles.customercare.home = '/platforms'),
  });

const ALL_THREE = [
  /goal\.json at \/list\/columns\/0\/cell: unknown cell "bool" \(known: text, boolean/,
  /platform\.json at \/record\/required\/\d+: field "nosuchfield" is not in record\.properties/,
  /roles\.json at \/roles\/customercare\/home: the screen at "\/platforms" \(.*platform\.json\) does not list role "customercare"/,
];

function expectAllThree(text: string) {
  expect(text).toMatch(/3 manifest mistakes:/);
  for (const line of ALL_THREE) expect(text).toMatch(line);
}

it('one load reports every mistake of the folder', () => {
  const dir = threeMistakes();
  expect(() => loadManifestDir(dir)).toThrow(/3 manifest mistakes/);
  try {
    loadManifestDir(dir);
  } catch (error) {
    expectAllThree((error as Error).message);
  }
});

it('mistakes of shape in two files are both reported', () => {
  const dir = schemasWith({
    'build.json': (j) => (j.list.highlight[0].tone = 'error'),
    'platform.json': (j) => (j.entity = 5),
  });
  expect(() => loadManifestDir(dir)).toThrow(/2 manifest mistakes:\n {2}.*build\.json at \/list\/highlight\/0\/tone: .*\n {2}.*platform\.json at \/entity: /);
});

for (const dialect of DIALECTS) {
  it(`a server start reports every mistake at once (${dialect})`, async () => {
    const failure = await startApp(dialect, { config: { schemasDir: threeMistakes() } }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expectAllThree(failure);
  });
}

it('the build reports every mistake at once', async () => {
  const dir = threeMistakes();
  const outDir = join(dir, 'never-built');
  const failure = await run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir], {
    env: { ...process.env, SCHEMAS_DIR: dir },
    cwd: resolve(import.meta.dirname, '../..'),
  }).then(
    () => 'built',
    (error: { stdout: string; stderr: string }) => `${error.stdout}\n${error.stderr}`,
  );
  expect(failure).toMatch(/Invalid manifest: 3 manifest mistakes/);
  expectAllThree(failure);
  expect(existsSync(outDir)).toBe(false);
}, 120_000);
