// Every kind of manifest mistake a developer can make stops the server start and the build with the file, the
// JSON path and (for a name) the names that exist — never a blank screen or a follow-on error.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { KNOWN_NAMES, loadManifestDir } from '../../server/manifests.ts';
import { beforeDestroy, customHandlers, recordChecks, valueSources } from '../../server/actions/index.ts';
import { SERVER_NAMES } from '../../server/actions/names.ts';
import { DIALECTS, startApp } from './harness.ts';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A temporary copy of schemas/ with one file edited. */
function schemasWith(file: string, edit: (json: any) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'mistake-'));
  dirs.push(dir);
  cpSync('schemas', dir, { recursive: true });
  const json = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  edit(json);
  writeFileSync(join(dir, file), JSON.stringify(json, null, 2));
  return dir;
}

const known = (kind: keyof typeof KNOWN_NAMES) => KNOWN_NAMES[kind].join(', ').replace(/[.]/g, '\\.');

const MISTAKES: { what: string; file: string; edit: (j: any) => void; message: RegExp }[] = [
  {
    what: 'an unknown form widget',
    file: 'platform.json',
    edit: (j) => (j.form.ui = { ...j.form.ui, name: { widget: 'textfield' } }),
    message: new RegExp(`platform\\.json at /form/ui/name/widget: unknown widget "textfield" \\(known: ${known('widget')}\\)`),
  },
  {
    what: 'an unknown cell',
    file: 'goal.json',
    edit: (j) => (j.list.columns[0].cell = 'bool'),
    message: new RegExp(`goal\\.json at /list/columns/0/cell: unknown cell "bool" \\(known: ${known('cell')}\\)`),
  },
  {
    what: 'an unknown filter kind',
    file: 'platform.json',
    edit: (j) => (j.list.filters[0].widget = 'dropdown'),
    message: new RegExp(`platform\\.json at /list/filters/0/widget: unknown filter kind "dropdown" \\(known: ${known('filter kind')}\\)`),
  },
  {
    what: 'an unknown tone',
    file: 'build.json',
    edit: (j) => (j.list.highlight[0].tone = 'error'),
    message: /build\.json at \/list\/highlight\/0\/tone: must be equal to one of the allowed values: \["success","warning","info","danger"\]/,
  },
  {
    what: 'an unknown screen override',
    file: 'dashboard.json',
    edit: (j) => (j.screen.override = 'dashbord'),
    message: /dashboard\.json at \/screen\/override: unknown screen override "dashbord" \(known: combinationsScreen, dashboard, testRequest\)/,
  },
  {
    what: 'an unknown form override',
    file: 'whitelabel.json',
    edit: (j) => (j.form.override = 'whiteLabelForm'),
    message: /whitelabel\.json at \/form\/override: unknown form override "whiteLabelForm" \(known: whitelabelForm, experimentForm, testersPhonesForm\)/,
  },
  {
    what: 'an unknown server check',
    file: 'experiment.json',
    edit: (j) => (j.actions.create.check = 'experiment.rule'),
    message: /experiment\.json at \/actions\/create\/check: unknown check "experiment\.rule" \(known: experiment\.rules\)/,
  },
  {
    what: 'an unknown handler',
    file: 'version.json',
    edit: (j) => (j.actions.list.handler = 'version.list'),
    message: new RegExp(`version\\.json at /actions/list/handler: unknown handler "version\\.list" \\(known: ${known('handler')}\\)`),
  },
  {
    what: 'an unknown value source',
    file: 'combination.json',
    edit: (j) => {
      const [name] = Object.entries(j.actions).find(([, a]: [string, any]) => a.forRole) as [string, any];
      const role = Object.keys(j.actions[name].forRole)[0];
      const field = Object.keys(j.actions[name].forRole[role])[0];
      j.actions[name].forRole[role][field] = 'officeIP';
    },
    message: /combination\.json at \/actions\/\w+\/forRole\/tester\/\w+: unknown value source "officeIP" \(known: officeIp\)/,
  },
  {
    what: 'a misspelt JSON Schema keyword in the record',
    file: 'platform.json',
    edit: (j) => (j.record.properties.name = { ...j.record.properties.name, maxLenght: 20 }),
    message: /platform\.json at \/record\/properties\/name\/maxLenght: unknown JSON Schema keyword "maxLenght"/,
  },
  {
    what: 'an unknown format',
    file: 'platform.json',
    edit: (j) => (j.record.properties.maxVersion.format = 'semvr'),
    message: /platform\.json at \/record\/properties\/maxVersion\/format: unknown format "semvr" \(known: .*semver.*\)/,
  },
  {
    what: 'a bad type',
    file: 'platform.json',
    edit: (j) => (j.record.properties.name.type = 'text'),
    message: /platform\.json at \/record\/properties\/name\/type: must be equal to one of the allowed values/,
  },
  {
    what: 'a misspelt keyword in an action inputSchema',
    file: 'officeIp.json',
    edit: (j) => (j.actions.update.inputSchema.properties.ip.fromat = 'ipv4'),
    message: /officeIp\.json at \/actions\/update\/inputSchema\/properties\/ip\/fromat: unknown JSON Schema keyword "fromat"/,
  },
  {
    what: 'a screen whose roles cannot list a lookup it uses',
    file: 'localisation.json',
    edit: (j) => (j.screen.roles = [...j.screen.roles, 'customercare']),
    message: /localisation\.json at \/(list\/filters\/\d+|form\/ui\/\w+)\/lookup: the screen's roles customercare cannot list entity "whitelabel" \(its list action allows admin, developer, tester\)/,
  },
  {
    what: 'a role home that is no screen of the role',
    file: 'roles.json',
    edit: (j) => (j.roles.customercare.home = '/platforms'),
    message: /roles\.json at \/roles\/customercare\/home: the screen at "\/platforms" \(.*platform\.json\) does not list role "customercare"/,
  },
];

describe('a manifest mistake stops the server start', () => {
  for (const m of MISTAKES) {
    it(m.what, () => {
      const dir = schemasWith(m.file, m.edit);
      expect(() => loadManifestDir(dir)).toThrow(m.message);
    });
  }
});

it('the server-side name lists are the server registries', () => {
  expect(SERVER_NAMES.handler.toSorted()).toEqual(Object.keys(customHandlers).sort());
  expect(SERVER_NAMES.check.toSorted()).toEqual(Object.keys(recordChecks).sort());
  expect(SERVER_NAMES['before hook'].toSorted()).toEqual(Object.keys(beforeDestroy).sort());
  expect(SERVER_NAMES['value source'].toSorted()).toEqual(Object.keys(valueSources).sort());
});

for (const dialect of DIALECTS) {
  it(`buildApp refuses to start on a manifest mistake (${dialect})`, async () => {
    const dir = schemasWith('goal.json', (j) => (j.list.columns[0].cell = 'bool'));
    await expect(startApp(dialect, { config: { schemasDir: dir } })).rejects.toThrow(/goal\.json at \/list\/columns\/0\/cell: unknown cell "bool"/);
  });
}

it('the build shows the manifest mistake, not a follow-on error, on a clone without dist/', async () => {
  const dir = schemasWith('goal.json', (j) => (j.list.columns[0].cell = 'bool'));
  const outDir = join(dir, 'never-built');
  const failure = await run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir], {
    env: { ...process.env, SCHEMAS_DIR: dir },
    cwd: resolve(import.meta.dirname, '../..'),
  }).then(
    () => null,
    (error: { stdout: string; stderr: string }) => `${error.stdout}\n${error.stderr}`,
  );
  expect(failure).toMatch(/Invalid manifest: .*goal\.json at \/list\/columns\/0\/cell: unknown cell "bool" \(known: text, boolean/);
  expect(failure).not.toMatch(/ENOENT|scandir/);
  expect(existsSync(outDir)).toBe(false);
}, 120_000);
