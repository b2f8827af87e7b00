// No lost update: an edit or toggle that carries the updatedAt it was made from is refused with 409 once the
// record has changed since, naming who changed it and when and carrying the current record; an edit without
// it (an old client) still works.
import { beforeAll, expect, it } from 'vitest';
import { whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect, type Harness } from './harness.ts';

const SECOND = { email: 'second.admin@test.io', password: 'second-admin-1' };
const staleOf = (reply: { body: unknown }) => (reply.body as { stale: { changedBy: string | null; record: Record<string, unknown> } }).stale;

forEachDialect('lost updates', (h: Harness) => {
  let second = '';
  beforeAll(async () => {
    await h.admin('GET', '/v1/admin/user/add', { query: { ...SECOND, role: 'admin' } });
    second = (await h.login(SECOND.email, SECOND.password)).body.data.token;
  });
  const addPlatform = async (name: string) => (await h.admin('GET', '/v1/admin/platform/add', { query: { name, maxVersion: '01.00.00' } })).body.data;

  it('refuses the stale one of two edits from the same version, naming who changed the record and when', async () => {
    const opened = await addPlatform('contested');
    const first = await h.call('GET', '/v1/admin/platform/edit', { token: second, query: { id: opened.id, maxVersion: '02.00.00', updatedAt: opened.updatedAt } });
    expect(first.status).toBe(200);
    const stale = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '03.00.00', updatedAt: opened.updatedAt } });
    expect(stale.status).toBe(409);
    const at = first.body.data.updatedAt as string;
    expect(stale.body.message).toBe(
      `This platform (id ${opened.id}) was changed by ${SECOND.email} at ${at.slice(0, 10)} ${at.slice(11, 19)} UTC after you opened it. Reload it to see the changes, then make yours again.`,
    );
    expect(stale.body).toMatchObject({ result: false, stale: { changedBy: SECOND.email, changedAt: at, record: { id: opened.id, maxVersion: '02.00.00', updatedAt: at } } });
    const stored = (await h.admin('GET', '/v1/admin/platform/get', { query: { pageSize: 1000 } })).body.data.rows.find((r: { id: number }) => r.id === opened.id);
    expect(stored.maxVersion).toBe('02.00.00');
  });

  it('accepts the edit again once it is made from the current version', async () => {
    const opened = await addPlatform('reloaded');
    const changed = await h.call('GET', '/v1/admin/platform/edit', { token: second, query: { id: opened.id, maxVersion: '02.00.00', updatedAt: opened.updatedAt } });
    const retried = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '03.00.00', updatedAt: changed.body.data.updatedAt } });
    expect(retried.status).toBe(200);
    expect(retried.body.data.maxVersion).toBe('03.00.00');
  });

  it('keeps edits of old clients that send no version working', async () => {
    const opened = await addPlatform('oldclient');
    await h.call('GET', '/v1/admin/platform/edit', { token: second, query: { id: opened.id, maxVersion: '02.00.00' } });
    const blind = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '03.00.00' } });
    expect(blind.status).toBe(200);
  });

  it('moves the version forward on every write, even two in the same millisecond', async () => {
    const opened = await addPlatform('quick');
    const versions = [opened.updatedAt];
    for (let i = 0; i < 5; i++) {
      const reply = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: `0${i}.00.00`, updatedAt: versions[versions.length - 1] } });
      expect(reply.status).toBe(200);
      versions.push(reply.body.data.updatedAt);
    }
    expect(new Set(versions).size).toBe(6);
    expect([...versions].sort()).toEqual(versions);
  });

  it('refuses a stale toggle of an active switch', async () => {
    const wl = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('togglewl') })).body.data;
    const config = (await h.admin('POST', '/v1/admin/wlConfig/add', { form: { whitelabelId: String(wl.id), config: '{"a":1}', isActive: 'true' } })).body.data;
    const flipped = await h.call('POST', '/v1/admin/wlConfig/changeIsActive', { token: second, body: { id: config.id, updatedAt: config.updatedAt } });
    expect(flipped.status).toBe(200);
    const stale = await h.admin('POST', '/v1/admin/wlConfig/changeIsActive', { body: { id: config.id, updatedAt: config.updatedAt } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain(`was changed by ${SECOND.email}`);
    expect(staleOf(stale).record.isActive).toBe(false);
    expect((await h.admin('POST', '/v1/admin/wlConfig/changeIsActive', { body: { id: config.id } })).status).toBe(200);
  });

  it('refuses a stale multipart edit and stores none of its files', async () => {
    const wl = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('multiwl') })).body.data;
    await h.call('POST', '/v1/admin/whitelabel/edit', { token: second, form: { id: String(wl.id), feUrl: 'https://second.example.com/', updatedAt: wl.updatedAt } });
    const stale = await h.admin('POST', '/v1/admin/whitelabel/edit', { form: { id: String(wl.id), feUrl: 'https://first.example.com/', updatedAt: wl.updatedAt } });
    expect(stale.status).toBe(409);
    const rows = (await h.admin('GET', '/v1/admin/whitelabel/get', { query: { pageSize: 1000 } })).body.data.rows;
    expect(rows.find((r: { id: number }) => r.id === wl.id).feUrl).toBe('https://second.example.com/');
  });

  it('refuses a version that is not a time with 400', async () => {
    const opened = await addPlatform('badversion');
    const reply = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '02.00.00', updatedAt: 'yesterday' } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("updatedAt: must be the record's updatedAt as it was read");
  });

  it('names the account of a password change that made an edit stale', async () => {
    const user = (await h.admin('GET', '/v1/admin/user/add', { query: { email: 'pw.stale@test.io', password: 'first-pass-1', role: 'tester' } })).body.data;
    await h.call('GET', '/v1/admin/user/update', { token: second, query: { email: user.email, password: 'second-pass-2', updatedAt: user.updatedAt } });
    const stale = await h.admin('GET', '/v1/admin/user/update', { query: { email: user.email, password: 'third-pass-3', updatedAt: user.updatedAt } });
    expect(stale.status).toBe(409);
    expect(staleOf(stale).changedBy).toBe(SECOND.email);
    expect(staleOf(stale).record).not.toHaveProperty('password');
  });
});
