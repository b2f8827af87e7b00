// One page-size rule (kernel/rules/page-size.ts) for the server and the panel: a list call that names no size gets
// the page the panel's list screen would ask for, the manifest's first offered size when it declares no default.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parseListQuery } from '../../src/core/list/list-query.ts';
import { forEachDialect } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'page-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
cpSync('schemas', dir, { recursive: true });
const file = join(dir, 'testerEmail.json');
const manifest = JSON.parse(readFileSync(file, 'utf8'));
delete manifest.list.defaultPageSize;
manifest.list.pageSizes = [5, 50];
writeFileSync(file, JSON.stringify(manifest, null, 2));

forEachDialect(
  'a list without a default page size',
  (h) => {
    it('answers the first offered size, as the panel asks', async () => {
      for (let i = 0; i < 7; i++) {
        const added = await h.admin('GET', '/v1/admin/testersEmails/add', { query: { email: `tester${i}@test.io` } });
        expect(added.status).toBe(200);
      }
      const page = await h.admin('GET', '/v1/admin/testersEmails/get');
      expect(page.status).toBe(200);
      const panelSize = parseListQuery(new URLSearchParams(), manifest.list).size;
      expect(panelSize).toBe(5);
      expect(page.body.data.rows ?? page.body.data).toHaveLength(panelSize);
    });
  },
  { config: { schemasDir: dir } },
);
