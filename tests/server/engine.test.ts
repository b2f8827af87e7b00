// The generic engine on fixture manifests: relations from one JOIN, compose, x-json, toggle with refuseWhen,
// destroyAll and destroyByFilter, and a referenced row that cannot be deleted.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { forEachDialect } from './harness.ts';

const schemasDir = mkdtempSync(join(tmpdir(), 'fx-schemas-'));
cpSync('schemas', schemasDir, { recursive: true });
cpSync('tests/server/fixtures', schemasDir, { recursive: true });

forEachDialect(
  'engine on fixture manifests',
  (h) => {
    const maker = async (name: string) => (await h.admin('POST', '/v1/fx/maker/add', { body: { name } })).body.data.id as number;
    const gadget = async (body: Record<string, unknown>) => h.admin('POST', '/v1/fx/gadget/add', { body });

    it('returns each row with its related record, compose object and parsed JSON field', async () => {
      const id = await maker('Acme');
      const created = await gadget({ makerId: id, tags: ['a', 'b'], ownerEmail: 'o@x.io' });
      expect(created.body.data).toMatchObject({ makerId: id, maker: { name: 'Acme' }, tags: ['a', 'b'], isActive: false, owner: { email: 'o@x.io' } });
    });

    it('accepts a JSON field as a JSON string and refuses one that is not JSON', async () => {
      const id = await maker('Stringy');
      expect((await gadget({ makerId: id, tags: '["x"]' })).body.data.tags).toEqual(['x']);
      const bad = await gadget({ makerId: id, tags: '[oops' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('tags');
    });

    it('reads a multipart form: text fields converted by the record schema, JSON fields parsed', async () => {
      const id = await maker('Formy');
      const reply = await h.admin('POST', '/v1/fx/gadget/addForm', { form: { makerId: String(id), tags: '["m","n"]', isActive: 'true' } });
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ makerId: id, tags: ['m', 'n'], isActive: true });
    });

    it('refuses a file sent in a multipart field that is not an upload, and a field given twice', async () => {
      const id = await maker('Filey');
      const before = await h.count('fx_gadgets');
      const file = await h.admin('POST', '/v1/fx/gadget/addForm', {
        form: { makerId: String(id), ownerEmail: { filename: 'x.txt', content: 'hello', type: 'text/plain' } },
      });
      expect(file.status).toBe(400);
      expect(file.body.message).toContain('ownerEmail');
      expect(await h.count('fx_gadgets')).toBe(before);
    });

    it('refuses a dangling relation id with a 400 naming the field', async () => {
      const reply = await gadget({ makerId: 999999 });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toContain('makerId');
    });

    it('filters by a related field and sorts by it', async () => {
      const z = await maker('Zeta');
      const y = await maker('Zebra');
      await gadget({ makerId: z });
      await gadget({ makerId: y });
      const reply = await h.admin('GET', '/v1/fx/gadget/get', { query: { makerName: 'Ze', sortBy: 'maker.name', sortOrder: 'asc' } });
      expect(reply.body.data.rows.map((r: { maker: { name: string } }) => r.maker.name)).toEqual(['Zebra', 'Zeta']);
    });

    it('flips a boolean with toggle and refuses a row matching refuseWhen with 409', async () => {
      const id = await maker('Toggler');
      const free = (await gadget({ makerId: id })).body.data.id;
      expect((await h.admin('POST', '/v1/fx/gadget/changeIsActive', { body: { id: free } })).body.data.isActive).toBe(true);
      expect((await h.admin('POST', '/v1/fx/gadget/changeIsActive', { body: { id: free } })).body.data.isActive).toBe(false);
      const locked = (await gadget({ makerId: id, isLocked: true })).body.data.id;
      expect(await h.admin('POST', '/v1/fx/gadget/changeIsActive', { body: { id: locked } })).toMatchObject({
        status: 409,
        body: { result: false, message: 'Locked gadgets cannot be switched' },
      });
    });

    it('refuses to delete a row that others still reference with 409', async () => {
      const id = await maker('Referenced');
      await gadget({ makerId: id });
      expect((await h.admin('DELETE', '/v1/fx/maker/destroy', { query: { id } })).status).toBe(409);
    });

    it('deletes by filter only what matches, and needs a filter', async () => {
      const a = await maker('ByFilterA');
      const b = await maker('ByFilterB');
      await gadget({ makerId: a });
      await gadget({ makerId: a });
      await gadget({ makerId: b });
      expect((await h.admin('DELETE', '/v1/fx/gadget/destroyByFilter')).status).toBe(400);
      expect((await h.admin('DELETE', '/v1/fx/gadget/destroyByFilter', { query: { makerId: a } })).body.data).toEqual({ count: 2, kept: { count: 0, by: [], records: [] } });
      expect((await h.admin('GET', '/v1/fx/gadget/get', { query: { makerId: b } })).body.data.count).toBe(1);
    });

    it('deletes every row with destroyAll and logs it', async () => {
      const before = await h.count('user_logs');
      const reply = await h.admin('DELETE', '/v1/fx/gadget/destroyAll');
      expect(reply.body.data.count).toBeGreaterThan(0);
      expect(await h.count('fx_gadgets')).toBe(0);
      // The call's row, and one row per deleted record with its old values (issue 15: the audit trail).
      expect(await h.count('user_logs')).toBe(before + 1 + reply.body.data.count);
    });
  },
  { config: { schemasDir } },
);
