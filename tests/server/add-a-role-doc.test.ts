// docs/add-a-role.md's own example builds: the role its step 1 declares, let into the users log as its step 2
// says, passes the build's and the start's manifest checks, and the new role lands on and reads its home.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readSchemasDir } from '../../kernel/manifest/read-dir.ts';
import { roleSet } from '../../kernel/roles.ts';
import { loadManifestDir } from '../../server/manifests.ts';
import { schemasWithDocumentedRole } from '../fixtures/new-entity-and-role.ts';
import { forEachDialect } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'add-a-role-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const role = schemasWithDocumentedRole(dir);
const userlog = JSON.parse(readFileSync(join(dir, 'userlog.json'), 'utf8')) as { screen: { route: string }; actions: { list: { path: string } } };

it("the page's example passes the manifest checks, and its home is the users log's screen", () => {
  expect(() => loadManifestDir(dir)).not.toThrow();
  expect(roleSet(readSchemasDir(dir).roles.json).homes[role as never]).toBe(userlog.screen.route);
});

forEachDialect(
  "the page's example role",
  (h) => {
    it('reads the users log and nothing it is not listed for', async () => {
      const email = `${role}@example.io`;
      expect((await h.admin('GET', '/v1/admin/user/add', { query: { email, password: `${role}-password-1`, role } })).status).toBe(200);
      const token = (await h.login(email, `${role}-password-1`)).body.data.token as string;
      expect((await h.call('GET', userlog.actions.list.path, { token })).status).toBe(200);
      expect((await h.call('GET', '/v1/admin/user/get', { token })).status).toBe(403);
    });
  },
  { config: { schemasDir: dir } },
);
