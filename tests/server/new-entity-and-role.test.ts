// Done-when of issue 13: a new entity and a new role are each added by writing files in schemas/ only (here a
// temporary copy), and work end to end — the server makes the table and calls and enforces the roles; the
// panel's engine (route guard, menu, forms compiled at build, user form's role choices) picks them up.
// tests/e2e/new-entity-and-role.test.ts builds the panel from such a copy and drives it in Chromium.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readSchemasDir } from '../../kernel/manifest/read-dir.ts';
import { loadManifests } from '../../kernel/manifest/load.ts';
import { roleSet } from '../../kernel/roles.ts';
import type { Role } from '../../kernel/manifest/types.ts';
import { formSchemas } from '../../scripts/build/form-validators.ts';
import { menuFor, screens } from '../../src/core/access/access.ts';
import { expectedSource } from '../../scripts/build/manifest-types.ts';
import { forEachDialect } from './harness.ts';
import { schemasWithGadgets } from '../fixtures/new-entity-and-role.ts';

const dir = mkdtempSync(join(tmpdir(), 'new-entity-role-'));
schemasWithGadgets(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PLATFORM_LIST = (JSON.parse(readFileSync('schemas/platform.json', 'utf8')) as { actions: { list: { path: string } } }).actions.list.path;

forEachDialect(
  'a new entity and a new role from schemas/ files only',
  (h) => {
    it('the server makes the calls and lets each role do only what the manifest lists', async () => {
      const added = await h.admin('POST', '/v1/gadget/add', { body: { name: 'Remote', weight: 120 } });
      expect(added.status).toBe(200);
      expect(added.body.data).toMatchObject({ name: 'Remote', weight: 120 });
      expect((await h.admin('POST', '/v1/gadget/add', { body: { name: 'x'.repeat(101) } })).status).toBe(400);

      // An admin gives someone the new role: the user entity's role choices come from roles.json.
      const user = await h.admin('GET', '/v1/admin/user/add', { query: { email: 'auditor@test.io', password: 'auditor-password-1', role: 'auditor' } });
      expect(user.status).toBe(200);
      const token = (await h.login('auditor@test.io', 'auditor-password-1')).body.data.token as string;
      expect(token).toBeTruthy();

      const listed = await h.call('GET', '/v1/gadget/list', { token, query: { name: 'Rem' } });
      expect(listed.status).toBe(200);
      expect(listed.body.data.rows.map((r: { name: string }) => r.name)).toEqual(['Remote']);
      expect((await h.call('POST', '/v1/gadget/add', { token, body: { name: 'Nope' } })).status).toBe(403);
      expect((await h.call('GET', PLATFORM_LIST, { token })).status).toBe(403);
      // A tester is not listed for gadgets at all.
      expect((await h.call('GET', '/v1/gadget/list', { token: h.tokens.tester })).status).toBe(403);
      // A role outside roles.json is still refused as a user's role.
      expect((await h.admin('GET', '/v1/admin/user/add', { query: { email: 'x@test.io', password: 'x-password-1', role: 'boss' } })).status).toBe(400);
    });
  },
  { config: { schemasDir: dir } },
);

it("the panel's engine draws the new screen for the new role and compiles its form", () => {
  const { files, roles: rolesFile } = readSchemasDir(dir);
  const set = loadManifests(files, rolesFile);
  const gadget = set.byEntity.get('gadget')!;
  expect(screens(set.all).map((m) => m.screen!.route)).toContain('/gadgets');
  expect(menuFor(set.all, 'auditor' as Role).flatMap((e) => (e.kind === 'group' ? e.items.map((i) => i.route) : [e.route]))).toEqual(['/gadgets']);
  expect(roleSet(rolesFile.json).homes).toMatchObject({ auditor: '/gadgets' });
  // The users form offers the new role.
  expect(set.byEntity.get('user')!.record!.properties.role.enum).toContain('auditor');
  // The build compiles a validator for the gadget form (admins' create form).
  const schemas = [...formSchemas(set.all).values()];
  expect(schemas.some((s) => JSON.stringify(s.properties ?? {}).includes('"weight"') && JSON.stringify(s).includes('"maxLength":100'))).toBe(true);
  expect(gadget.actions.list.roles).toContain('auditor');
  // The generated Role type includes the new role.
  expect(expectedSource(dir)).toContain('"auditor"');
});
