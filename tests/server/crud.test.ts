// The generic CRUD routes on the four entities of issue 2: what a client sees for good and bad input.
import { expect, it } from 'vitest';
import { forEachDialect } from './harness.ts';

forEachDialect('platforms', (h) => {
  it('creates a platform from query fields and answers with the stored record', async () => {
    const reply = await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'webos', maxVersion: '12.3.4' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ name: 'webos', maxVersion: '12.3.4' });
    expect(reply.body.data.id).toEqual(expect.any(Number));
    expect(reply.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('edits a platform by id and keeps what was not sent', async () => {
    const created = await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'tizen', maxVersion: '1.0.0' } });
    const edited = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: created.body.data.id, maxVersion: '2.0.0' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ name: 'tizen', maxVersion: '2.0.0' });
  });

  it('pages, sorts and filters the list and counts every match', async () => {
    for (const n of [1, 2, 3, 4, 5]) await h.admin('GET', '/v1/admin/platform/add', { query: { name: `pager-${n}`, maxVersion: `${n}.0.0` } });
    const page = await h.admin('GET', '/v1/admin/platform/get', { query: { name: 'pager', page: 2, pageSize: 2, sortBy: 'name', sortOrder: 'desc' } });
    expect(page.status).toBe(200);
    expect(page.body.data.count).toBe(5);
    expect(page.body.data.rows.map((r: { name: string }) => r.name)).toEqual(['pager-3', 'pager-2']);
  });

  it('treats an empty filter as no filter', async () => {
    const all = await h.admin('GET', '/v1/admin/platform/get', { query: { name: '', pageSize: 1000 } });
    expect(all.body.data.count).toBe(all.body.data.rows.length);
    expect(all.body.data.count).toBeGreaterThan(0);
  });

  it.each([
    [{ sortBy: 'secret' }, 'sortBy'],
    [{ maxVersion: '1.2.3' }, 'maxVersion'],
    [{ sortOrder: 'sideways' }, 'sortOrder'],
    [{ pageSize: 5000 }, 'pageSize'],
    [{ page: 'first' }, 'page'],
  ])('refuses the list with %j as a 400 naming %s, with the problem as a code', async (query, field) => {
    const reply = await h.admin('GET', '/v1/admin/platform/get', { query });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      result: false,
      code: 'ERR_VALIDATION',
      message: expect.stringContaining(field),
      fields: [{ field, message: reply.body.message, problem: expect.any(String), params: expect.any(Object) }],
    });
  });

  it.each([
    [{ name: 'x', maxVersion: '1.2' }, 'Max version must be a version XX.YY.ZZ, like 01.20.34'],
    [{ name: 'x', maxVersion: '123.1.1' }, 'Max version must be a version XX.YY.ZZ, like 01.20.34'],
    [{ maxVersion: '1.2.3' }, 'Name is required'],
    [{ name: 'x', maxVersion: '1.2.3', color: 'red' }, 'color is not an accepted field'],
    [{ name: 'x', maxVersion: '1.2.3', id: 77 }, 'id is read-only'],
    [{ name: 'x', maxVersion: '1.2.3', createdAt: '2020-01-01T00:00:00Z' }, 'Created is read-only'],
  ])('refuses to create %j with a 400 saying "%s" and stores nothing', async (query, message) => {
    const before = await h.count('platforms');
    const reply = await h.admin('GET', '/v1/admin/platform/add', { query });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(message);
    expect(await h.count('platforms')).toBe(before);
  });

  it('refuses a second platform of the same name with 409', async () => {
    await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'twin', maxVersion: '1.0.0' } });
    const again = await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'twin', maxVersion: '1.0.0' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Name is already taken');
  });

  it('deletes a platform and answers 404 for one that does not exist', async () => {
    const created = await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'doomed', maxVersion: '1.0.0' } });
    const removed = await h.admin('GET', '/v1/admin/platform/destroy', { query: { id: created.body.data.id } });
    expect(removed.body).toEqual({ result: true, data: { id: created.body.data.id } });
    expect((await h.admin('GET', '/v1/admin/platform/destroy', { query: { id: created.body.data.id } })).status).toBe(404);
  });

  it('lists every stored semver, newest first, as the versions list', async () => {
    await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'v-a', maxVersion: '9.10.0' } });
    await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'v-b', maxVersion: '10.1.0' } });
    const reply = await h.call('GET', '/v1/admin/versions/get', { token: h.tokens.tester });
    const rows: string[] = reply.body.data.rows;
    expect(rows.indexOf('10.1.0')).toBeLessThan(rows.indexOf('9.10.0'));
    expect(reply.body.data.count).toBe(rows.length);
    expect(new Set(rows).size).toBe(rows.length);
  });
});

forEachDialect('tester emails', (h) => {
  it('stores a tester e-mail with its md5 hash and active by default', async () => {
    const reply = await h.call('GET', '/v1/admin/testersEmails/add', { token: h.tokens.tester, query: { email: 'qa@tv.io' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ email: 'qa@tv.io', hash: expect.stringMatching(/^[0-9a-f]{32}$/), active: true });
  });

  it('switches a tester e-mail off with a query boolean and recomputes the hash on a new address', async () => {
    const created = await h.admin('GET', '/v1/admin/testersEmails/add', { query: { email: 'one@tv.io' } });
    const edited = await h.admin('GET', '/v1/admin/testersEmails/edit', { query: { id: created.body.data.id, email: 'two@tv.io', active: 'false' } });
    expect(edited.body.data).toMatchObject({ email: 'two@tv.io', active: false });
    expect(edited.body.data.hash).not.toBe(created.body.data.hash);
  });

  it.each([
    [{ email: 'not-an-email' }, 'Email must be an e-mail address'],
    [{ email: 'x@tv.io', active: 'maybe' }, 'Email is active must be true or false'],
    [{ email: 'x@tv.io', hash: 'abc' }, 'Email hash is read-only'],
  ])('refuses %j with a 400 saying "%s"', async (query, message) => {
    const before = await h.count('tester_emails');
    const reply = await h.admin('GET', '/v1/admin/testersEmails/add', { query });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(message);
    expect(await h.count('tester_emails')).toBe(before);
  });

  it('filters tester e-mails by a part of the address', async () => {
    await h.admin('GET', '/v1/admin/testersEmails/add', { query: { email: 'needle-1@tv.io' } });
    const reply = await h.admin('GET', '/v1/admin/testersEmails/get', { query: { email: 'needle' } });
    expect(reply.body.data.rows.map((r: { email: string }) => r.email)).toEqual(['needle-1@tv.io']);
  });

  it('removes a tester e-mail', async () => {
    const created = await h.admin('GET', '/v1/admin/testersEmails/add', { query: { email: 'gone@tv.io' } });
    expect((await h.admin('GET', '/v1/admin/testersEmails/remove', { query: { id: created.body.data.id } })).status).toBe(200);
    expect((await h.admin('GET', '/v1/admin/testersEmails/get', { query: { email: 'gone@' } })).body.data.count).toBe(0);
  });
});

forEachDialect('users', (h) => {
  it('creates a user of each role and never returns a password or hash', async () => {
    const reply = await h.admin('GET', '/v1/admin/user/add', { query: { email: 'dev2@test.io', password: 'long-enough-1', role: 'developer' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ email: 'dev2@test.io', role: 'developer' });
    const list = await h.admin('GET', '/v1/admin/user/get');
    expect(list.raw).not.toMatch(/password|Hash|scrypt/);
  });

  it.each([
    [{ email: 'r@test.io', password: 'long-enough-1', role: 'boss' }, 'Role must be one of: admin, developer, tester, customercare'],
    [{ email: 'bad', password: 'long-enough-1', role: 'tester' }, 'Email must be an e-mail address'],
    [{ email: 'r@test.io', role: 'tester' }, 'Password is required'],
    [{ email: 'r@test.io', password: 'short', role: 'tester' }, 'Password must be at least 8 characters long'],
    [{ email: 'r@test.io', password: 'long-enough-1', role: 'tester', passwordHash: 'x' }, 'passwordHash is not an accepted field'],
  ])('refuses %j with a 400 saying "%s"', async (query, message) => {
    const before = await h.count('users');
    const reply = await h.admin('GET', '/v1/admin/user/add', { query });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(message);
    expect(await h.count('users')).toBe(before);
  });

  it('changes only the password on update and refuses a new role or e-mail', async () => {
    await h.admin('GET', '/v1/admin/user/add', { query: { email: 'edit@test.io', password: 'first-pass-1', role: 'tester' } });
    const ok = await h.admin('GET', '/v1/admin/user/update', { query: { email: 'edit@test.io', password: 'second-pass-2', role: 'tester' } });
    expect(ok.status).toBe(200);
    expect((await h.login('edit@test.io', 'second-pass-2')).status).toBe(200);
    const promote = await h.admin('GET', '/v1/admin/user/update', { query: { email: 'edit@test.io', password: 'third-pass-3', role: 'admin' } });
    expect(promote.status).toBe(400);
    expect(promote.body.message).toBe('Role cannot be changed');
    expect((await h.login('edit@test.io', 'second-pass-2')).body.data.user.role).toBe('tester');
  });

  it('refuses to delete an admin with 409 and deletes other users', async () => {
    const admins = await h.admin('GET', '/v1/admin/user/get', { query: { role: 'admin' } });
    const refused = await h.admin('GET', '/v1/admin/user/destroy', { query: { id: admins.body.data.rows[0].id } });
    expect(refused).toMatchObject({ status: 409, body: { result: false, message: 'Admin users cannot be deleted' } });
    const created = await h.admin('GET', '/v1/admin/user/add', { query: { email: 'bye@test.io', password: 'long-enough-1', role: 'customercare' } });
    expect((await h.admin('GET', '/v1/admin/user/destroy', { query: { id: created.body.data.id } })).status).toBe(200);
  });
});

forEachDialect('users logs', (h) => {
  it('records every write with the caller, the controller path and method', async () => {
    await h.call('GET', '/v1/admin/platform/add', { token: h.tokens.developer, query: { name: 'logged', maxVersion: '1.0.0' } });
    const logs = await h.admin('GET', '/v1/admin/userlogs/get', { query: { baseUrl: '/v1/admin/platform' } });
    expect(logs.body.data.rows[0]).toMatchObject({
      userRole: 'developer',
      userEmail: 'developer@test.io',
      baseUrl: '/v1/admin/platform',
      routePath: 'add',
      user: { role: 'developer', email: 'developer@test.io' },
    });
  });

  it('writes no row for a refused write', async () => {
    const before = await h.count('user_logs');
    await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'x', maxVersion: 'bad' } });
    expect(await h.count('user_logs')).toBe(before);
  });

  it('filters logs by user id and lists newest first', async () => {
    const me = (await h.admin('GET', '/v1/admin/user/get', { query: { email: 'tester@' } })).body.data.rows[0];
    await h.call('GET', '/v1/admin/testersEmails/add', { token: h.tokens.tester, query: { email: 'log1@tv.io' } });
    const logs = await h.admin('GET', '/v1/admin/userlogs/get', { query: { userId: me.id } });
    expect(logs.body.data.rows.every((r: { userId: number }) => r.userId === me.id)).toBe(true);
    const ids = logs.body.data.rows.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
  });

  it('offers no route that edits or deletes a log row', async () => {
    expect((await h.admin('GET', '/v1/admin/userlogs/destroy', { query: { id: 1 } })).status).toBe(404);
  });
});
