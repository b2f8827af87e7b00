// Logging in and out, what authenticates a call, what revokes a token, and the attempt limits.
import { expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { SESSION_RECHECK_MS } from '../../server/plugins/auth.ts';
import { forEachDialect, ADMIN } from './harness.ts';

forEachDialect('auth', (h) => {
  it('logs in with e-mail and password and answers with a token and the user', async () => {
    const reply = await h.login(ADMIN.email, ADMIN.password);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ token: expect.stringMatching(/^[\w-]{43}$/), user: { id: expect.any(Number), email: ADMIN.email, role: 'admin' } });
  });

  it('gives the same answer for a wrong password and an unknown e-mail', async () => {
    const wrong = await h.login(ADMIN.email, 'not-the-password', '10.0.0.1');
    const unknown = await h.login('nobody@test.io', 'not-the-password', '10.0.0.1');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('accepts the raw token and the Bearer form, and refuses a bad one', async () => {
    const token = h.tokens.admin;
    expect((await h.call('GET', '/v1/admin/user/get', { headers: { authorization: token } })).status).toBe(200);
    expect((await h.call('GET', '/v1/admin/user/get', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await h.call('GET', '/v1/admin/user/get', { headers: { authorization: 'Bearer nonsense' } })).status).toBe(401);
  });

  it('never authenticates from a cookie', async () => {
    const reply = await h.call('GET', '/v1/admin/user/get', { headers: { cookie: `Authorization=${h.tokens.admin}` } });
    expect(reply.status).toBe(401);
  });

  it('revokes the token on logout', async () => {
    const token = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
    expect((await h.call('POST', '/v1/user/logout', { token })).status).toBe(200);
    expect((await h.call('GET', '/v1/admin/user/get', { token })).status).toBe(401);
    expect((await h.call('GET', '/v1/admin/user/get', { token: h.tokens.admin })).status).toBe(200);
  });

  it('revokes the tokens of a user whose password changes', async () => {
    await h.admin('GET', '/v1/admin/user/add', { query: { email: 'pw@test.io', password: 'first-pass-1', role: 'developer' } });
    const token = (await h.login('pw@test.io', 'first-pass-1')).body.data.token;
    // A call just before: the session is then one this process has read and keeps for a moment.
    expect((await h.call('GET', '/v1/admin/platform/get', { token })).status).toBe(200);
    await h.admin('GET', '/v1/admin/user/update', { query: { email: 'pw@test.io', password: 'second-pass-2' } });
    expect((await h.call('GET', '/v1/admin/platform/get', { token })).status).toBe(401);
  });

  it('revokes the tokens of a deleted user', async () => {
    const created = await h.admin('GET', '/v1/admin/user/add', { query: { email: 'del@test.io', password: 'first-pass-1', role: 'developer' } });
    const token = (await h.login('del@test.io', 'first-pass-1')).body.data.token;
    expect((await h.call('GET', '/v1/admin/platform/get', { token })).status).toBe(200);
    await h.admin('GET', '/v1/admin/user/destroy', { query: { id: created.body.data.id } });
    expect((await h.call('GET', '/v1/admin/platform/get', { token })).status).toBe(401);
  });

  it('refuses a session ended behind the server, its row deleted from the table, within SESSION_RECHECK_MS', async () => {
    const token = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
    expect((await h.call('GET', '/v1/admin/platform/get', { token })).status).toBe(200);
    await h.app.engine.db.deleteFrom('auth_tokens').where('tokenHash', '=', createHash('sha256').update(token).digest('hex')).execute();
    await new Promise((resolve) => setTimeout(resolve, SESSION_RECHECK_MS + 50));
    expect((await h.call('GET', '/v1/admin/platform/get', { token })).status).toBe(401);
  });

  it('slows guesses on one account without locking its user out: five wrong passwords elsewhere leave the right one working', async () => {
    await h.admin('GET', '/v1/admin/user/add', { query: { email: 'locked@test.io', password: 'right-pass-1', role: 'tester' } });
    for (let i = 0; i < 5; i++) expect((await h.login('locked@test.io', 'wrong-pass', '10.1.0.1')).status).toBe(401);
    const slowed = await h.login('locked@test.io', 'wrong-pass', '10.1.0.1');
    expect(slowed.status).toBe(429);
    expect(slowed.body.result).toBe(false);
    expect((await h.login('locked@test.io', 'right-pass-1', '10.1.0.99')).status).toBe(200);
  });

  it('answers 429 after too many failed attempts from one address', async () => {
    for (let i = 0; i < 20; i++) await h.login(`spray${i}@test.io`, 'wrong-pass', '10.2.0.1');
    expect((await h.login(ADMIN.email, ADMIN.password, '10.2.0.1')).status).toBe(429);
    expect((await h.login(ADMIN.email, ADMIN.password, '10.2.0.2')).status).toBe(200);
  });

  it('logs every login attempt, failed or not', async () => {
    const before = await h.count('user_logs');
    await h.login(ADMIN.email, ADMIN.password, '10.3.0.1');
    await h.login(ADMIN.email, 'wrong-pass', '10.3.0.1');
    expect(await h.count('user_logs')).toBe(before + 2);
    const rows = (await h.admin('GET', '/v1/admin/userlogs/get', { query: { baseUrl: '/v1/user', pageSize: 2 } })).body.data.rows;
    expect(rows.map((r: { routePath: string }) => r.routePath)).toEqual(['loginFailed', 'login']);
  });

  it('shows no token or hash in any answer but the login itself', async () => {
    for (const url of ['/v1/admin/user/get', '/v1/admin/userlogs/get']) {
      const reply = await h.admin('GET', url, { query: { pageSize: 1000 } });
      expect(reply.raw).not.toContain(h.tokens.admin);
      expect(reply.raw).not.toMatch(/scrypt\$|passwordHash|tokenHash/);
    }
  });

  it('refuses a login body with unknown fields or wrong types with 400', async () => {
    expect((await h.call('POST', '/v1/user/login', { body: { email: ADMIN.email, password: 1 } })).status).toBe(400);
    expect((await h.call('POST', '/v1/user/login', { body: { email: ADMIN.email, password: 'x', role: 'admin' } })).status).toBe(400);
  });
});
