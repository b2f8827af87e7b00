// The users log answers "who changed this record, when, from what to what": each write's row carries the fields
// it changed with their values before and after (creates after only, deletes before only), never a password.
import { expect, it } from 'vitest';
import { forEachDialect, ADMIN, type Harness } from './harness.ts';

type Change = { field: string; before?: unknown; after?: unknown; secret?: true };
type LogRow = { id: number; userEmail: string | null; routePath: string; entity: string | null; recordId: number | null; changes: Change[] | null; detail: string | null };

const history = async (h: Harness, entity: string, recordId: number): Promise<LogRow[]> => {
  const reply = await h.admin('GET', '/v1/admin/userlogs/get', { query: { entity, recordId, pageSize: 100 } });
  expect(reply.status).toBe(200);
  return reply.body.data.rows;
};

forEachDialect('audit changes', (h) => {
  it('logs a create with the new values only, an edit with the changed fields before and after, a delete with the old values', async () => {
    const id = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'diffed', maxVersion: '01.02.03' } })).body.data.id;
    expect((await h.admin('GET', '/v1/admin/platform/edit', { query: { id, name: 'diffed-2', maxVersion: '01.02.03' } })).status).toBe(200);
    expect((await h.admin('GET', '/v1/admin/platform/destroy', { query: { id } })).status).toBe(200);
    const [destroyed, edited, created] = await history(h, 'platform', id);
    expect(created).toMatchObject({ routePath: 'add', userEmail: ADMIN.email, recordId: id });
    expect(created.changes).toEqual([
      { field: 'name', after: 'diffed' },
      { field: 'maxVersion', after: '01.02.03' },
    ]);
    expect(edited.routePath).toBe('edit');
    expect(edited.changes).toEqual([{ field: 'name', before: 'diffed', after: 'diffed-2' }]);
    expect(destroyed.routePath).toBe('destroy');
    expect(destroyed.changes).toEqual([
      { field: 'name', before: 'diffed-2' },
      { field: 'maxVersion', before: '01.02.03' },
    ]);
  });

  it('keeps a changed value as one visible line: line breaks and text-reordering characters escaped, long text cut', async () => {
    const id = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'plain-name', maxVersion: '01.02.03' } })).body.data.id;
    expect((await h.admin('GET', '/v1/admin/platform/edit', { query: { id, name: 'evil\u202egpj\nline', maxVersion: '01.02.03' } })).status).toBe(200);
    const [edited] = await history(h, 'platform', id);
    expect(edited.changes).toEqual([{ field: 'name', before: 'plain-name', after: 'evil\\u202egpj\\nline' }]);
  });

  it('logs a toggle as the flipped field, and an edit that changes nothing without changes', async () => {
    const db = h.app.engine.db;
    const wl = await db.insertInto('whitelabels').values({ name: 'diffwl', feUrl: 'https://fe.example', deployConfiguration: '{}' }).returning('id').executeTakeFirstOrThrow();
    const added = await h.admin('POST', '/v1/admin/localisation/add', { form: { whitelabelId: String(wl.id), translations: '{"hello":"Привет"}' } });
    expect(added.status).toBe(200);
    const id = added.body.data.id;
    expect((await h.admin('POST', '/v1/admin/localisation/changeIsActive', { body: { id } })).status).toBe(200);
    expect((await h.admin('POST', '/v1/admin/localisation/edit', { form: { id: String(id), translations: '{"hello":"Привет"}' } })).status).toBe(200);
    const [unchanged, toggled, created] = await history(h, 'localisation', id);
    expect(created.changes).toContainEqual({ field: 'translations', after: { hello: 'Привет' } });
    expect(toggled.changes).toEqual([{ field: 'isActive', before: false, after: true }]);
    expect(unchanged.changes).toBeNull();
  });

  it('logs a password change as changed, storing neither the old nor the new password', async () => {
    const email = 'audited-user@test.io';
    const id = (await h.admin('GET', '/v1/admin/user/add', { query: { email, password: 'first-secret-1', role: 'developer' } })).body.data.id;
    expect((await h.admin('GET', '/v1/admin/user/update', { query: { email, password: 'second-secret-2' } })).status).toBe(200);
    const [changed, created] = await history(h, 'user', id);
    expect(created.changes).toEqual([
      { field: 'email', after: email },
      { field: 'role', after: 'developer' },
      { field: 'password', secret: true },
    ]);
    expect(changed.changes).toEqual([{ field: 'password', secret: true }]);
    const stored = await h.app.engine.db.selectFrom('user_logs').select('changes').where('entity', '=', 'user').execute();
    const text = JSON.stringify(stored);
    expect(text).not.toContain('first-secret-1');
    expect(text).not.toContain('second-secret-2');
  });

  it('logs a bulk delete as one row per removed record with its old values', async () => {
    await h.app.engine.db
      .insertInto('app_infos')
      .values(['dev-a', 'dev-b', 'dev-c'].map((appInstallId) => ({ appInstallId, active: 'yes', platform: 'tizen' })))
      .execute();
    const rows: { id: number; appInstallId: string }[] = (await h.admin('GET', '/v1/admin/appinfo/get', { query: { pageSize: 100 } })).body.data.rows;
    expect(rows.map((r) => r.appInstallId).sort()).toEqual(['dev-a', 'dev-b', 'dev-c']);
    expect((await h.admin('GET', '/v1/admin/appinfo/removeAll')).body.data.count).toBe(3);
    for (const { id, appInstallId } of rows) {
      const [row] = await history(h, 'appinfo', id);
      expect(row.routePath).toBe('removeAll');
      expect(row.changes).toContainEqual({ field: 'appInstallId', before: appInstallId });
      expect(row.changes).toContainEqual({ field: 'platform', before: 'tizen' });
    }
  });

  it("gives the first 1000 records of a larger bulk delete a row each, and says on the call's row how many went", async () => {
    const db = h.app.engine.db;
    const rows = Array.from({ length: 1005 }, (_, i) => ({ appInstallId: `bulk-${i}`, active: 'yes', platform: 'webos' }));
    for (let i = 0; i < rows.length; i += 200) await db.insertInto('app_infos').values(rows.slice(i, i + 200)).execute();
    const before = await h.count('user_logs');
    expect((await h.admin('GET', '/v1/admin/appinfo/removeAll')).body.data.count).toBe(1005);
    expect(await h.count('user_logs')).toBe(before + 1 + 1000);
    const call = (await h.admin('GET', '/v1/admin/userlogs/get', { query: { entity: 'appinfo', baseUrl: '/v1/admin/appinfo' } })).body.data.rows.find((r: LogRow) => r.recordId === null);
    expect(call.detail).toBe('deleted 1005 records; the first 1000 have a row each');
  });

  it('filters the log by entity and record id', async () => {
    const a = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'filter-a', maxVersion: '01.02.03' } })).body.data.id;
    await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'filter-b', maxVersion: '01.02.03' } });
    const rows = await history(h, 'platform', a);
    expect(rows.map((r) => [r.entity, r.recordId])).toEqual([['platform', a]]);
    expect(await history(h, 'whitelabel', a)).not.toContainEqual(expect.objectContaining({ entity: 'platform' }));
  });
});
