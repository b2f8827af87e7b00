// App info: the customercare home. Records come from devices; staff filter, delete one and delete all.
import { expect, it } from 'vitest';
import { forEachDialect } from './harness.ts';

forEachDialect('app info', (h) => {
  const seed = (rows: Record<string, unknown>[]) =>
    h.app.engine.db.insertInto('app_infos').values(rows.map((r) => ({ active: 'yes', platform: 'tizen', ...r }))).execute();
  const list = (query: Record<string, string | number> = {}) =>
    h.call('GET', '/v1/admin/appinfo/get', { query, token: h.tokens.customercare });

  it('lets customercare filter by email, login and appInstallId', async () => {
    await seed([
      { email: 'ann@example.com', login: 'ann', appInstallId: 'inst-ann' },
      { email: 'bob@example.com', login: 'bobby', appInstallId: 'inst-bob', active: 'no' },
    ]);
    expect((await list({ email: 'ann@' })).body.data.rows.map((r: { login: string }) => r.login)).toEqual(['ann']);
    expect((await list({ login: 'bob' })).body.data.rows.map((r: { appInstallId: string }) => r.appInstallId)).toEqual(['inst-bob']);
    const byInstall = (await list({ appInstallId: 'inst-bob' })).body.data.rows[0];
    expect(byInstall).toMatchObject({ email: 'bob@example.com', active: 'no', platform: 'tizen' });
  });

  it('lets customercare delete one record with GET remove', async () => {
    await seed([{ appInstallId: 'inst-one' }]);
    const id = (await list({ appInstallId: 'inst-one' })).body.data.rows[0].id;
    expect((await h.call('GET', '/v1/admin/appinfo/remove', { query: { id }, token: h.tokens.customercare })).status).toBe(200);
    expect((await list({ appInstallId: 'inst-one' })).body.data.count).toBe(0);
    expect((await h.call('GET', '/v1/admin/appinfo/remove', { query: { id }, token: h.tokens.customercare })).status).toBe(404);
  });

  it('refuses wrong types and unknown fields with a 400', async () => {
    expect((await h.call('GET', '/v1/admin/appinfo/remove', { query: { id: 'one' }, token: h.tokens.customercare })).status).toBe(400);
    expect((await list({ colour: 'red' })).body.message).toContain('colour');
    expect((await h.call('GET', '/v1/admin/appinfo/removeAll', { query: { id: 1 }, token: h.tokens.customercare })).status).toBe(400);
  });

  it('keeps app info from a tester', async () => {
    expect((await h.call('GET', '/v1/admin/appinfo/get', { token: h.tokens.tester })).status).toBe(403);
    expect((await h.call('GET', '/v1/admin/appinfo/removeAll', { token: h.tokens.tester })).status).toBe(403);
  });

  it('lets customercare delete every record with removeAll', async () => {
    await seed([{ appInstallId: 'inst-x' }, { appInstallId: 'inst-y' }]);
    const reply = await h.call('GET', '/v1/admin/appinfo/removeAll', { token: h.tokens.customercare });
    expect(reply.body.data.count).toBeGreaterThanOrEqual(2);
    expect(await h.count('app_infos')).toBe(0);
  });
});
