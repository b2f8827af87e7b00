// Live lists: a committed write reaches, as an "entity changed" item naming the record and who wrote it, the live
// sockets of exactly the roles that may list the entity; others never hear of it. A socket that says how long it
// was not listening (`missedMs`) hears at connect what changed meanwhile, on this process or another one.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { FastifyInstance } from 'fastify';
import { forEachDialect, emailOf, passwordOf, startApp, ADMIN, type Harness } from './harness.ts';
import type { Role } from '../../kernel/manifest/types.ts';
import { MISSED_SLACK_MS, REMEMBERED_PER_ENTITY, type EntityChanged } from '../../server/plugins/live-lists.ts';

const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (test: () => boolean) => {
  for (let i = 0; i < 60 && !test(); i++) await settle();
};

/** A socket on `port` with the entityChanged items it hears; `missedMs` is what its handshake says it missed. */
async function open(port: number, token: string, missedMs?: number) {
  const socket = io(`http://127.0.0.1:${port}`, { auth: { token, missedMs }, transports: ['websocket'], reconnection: false });
  const seen: EntityChanged[] = [];
  socket.on('entityChanged', (batch: EntityChanged[]) => seen.push(...batch));
  await new Promise((resolve, reject) => {
    socket.on('connect', () => resolve(undefined));
    socket.on('connect_error', reject);
  });
  return { socket, seen };
}

forEachDialect('live lists', (h: Harness) => {
  let port = 0;
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as { port: number }).port;
  });

  const roles: Role[] = ['admin', 'developer', 'tester', 'customercare'];
  const openAll = async () =>
    Object.fromEntries(await Promise.all(roles.map(async (role) => [role, await open(port, (await h.login(emailOf(role), passwordOf(role))).body.data.token)] as const)));

  it('tells every role that may list platforms which platform a developer changed and who did it, and not customer care', async () => {
    const sockets = await openAll();
    const added = await h.call('GET', '/v1/admin/platform/add', { token: h.tokens.developer, query: { name: 'live-tv', maxVersion: '1.2.3' } });
    expect(added.status).toBe(200);
    const id = added.body.data.id as number;
    await until(() => ['admin', 'developer', 'tester'].every((r) => sockets[r].seen.length > 0));
    await settle(300);
    for (const role of ['admin', 'developer', 'tester']) {
      expect(sockets[role].seen).toEqual([{ entity: 'platform', ids: [id], by: emailOf('developer'), at: expect.any(String) }]);
    }
    expect(sockets.customercare.seen).toEqual([]);

    await h.call('GET', '/v1/admin/platform/edit', { token: h.tokens.admin, query: { id, maxVersion: '1.2.4' } });
    await until(() => sockets.tester.seen.length === 2);
    expect(sockets.tester.seen[1]).toMatchObject({ entity: 'platform', ids: [id], by: emailOf('admin') });
    for (const s of Object.values(sockets)) s.socket.close();
  });

  it('never sends a change of the users list to a role that may not list users', async () => {
    const sockets = await openAll();
    const added = await h.admin('GET', '/v1/admin/user/add', { query: { email: 'watched@test.io', password: 'watched-pass-1', role: 'tester' } });
    expect(added.status).toBe(200);
    await until(() => sockets.admin.seen.length > 0);
    await settle(300);
    expect(sockets.admin.seen.map((c) => c.entity)).toContain('user');
    for (const role of ['developer', 'tester', 'customercare']) expect(sockets[role].seen.filter((c) => c.entity === 'user')).toEqual([]);
    for (const s of Object.values(sockets)) s.socket.close();
  });

  it('announces nothing for a write that was refused', async () => {
    const { admin } = await openAll().then((s) => {
      for (const role of ['developer', 'tester', 'customercare']) s[role].socket.close();
      return s;
    });
    const refused = await h.call('GET', '/v1/admin/platform/add', { token: h.tokens.developer, query: { name: 'live-tv', maxVersion: '1.2.3' } });
    expect(refused.status).toBe(409);
    await settle(300);
    expect(admin.seen).toEqual([]);
    admin.socket.close();
  });

  it('tells a socket that was away what changed meanwhile of the entities its role may list, and nothing older', async () => {
    const older = await h.call('GET', '/v1/admin/platform/add', { token: h.tokens.developer, query: { name: 'before-away', maxVersion: '1.0.0' } });
    await settle(MISSED_SLACK_MS + 500);
    const away = Date.now();
    const edited = await h.call('GET', '/v1/admin/platform/edit', { token: h.tokens.developer, query: { id: older.body.data.id, maxVersion: '1.0.1' } });
    expect(edited.status).toBe(200);
    await h.admin('GET', '/v1/admin/user/add', { query: { email: 'while-away@test.io', password: 'while-away-pass-1', role: 'tester' } });

    const tester = await open(port, h.tokens.tester, Date.now() - away);
    const admin = await open(port, h.tokens.admin, Date.now() - away);
    await until(() => tester.seen.length > 0 && admin.seen.length > 1);
    await settle(200);
    const platformEdit = { entity: 'platform', ids: [older.body.data.id], by: emailOf('developer'), at: expect.any(String), missed: true };
    expect(tester.seen).toEqual([platformEdit]);
    expect(admin.seen).toEqual(expect.arrayContaining([platformEdit, expect.objectContaining({ entity: 'user', by: ADMIN.email })]));
    expect(admin.seen).toHaveLength(2);
    tester.socket.close();
    admin.socket.close();
  });

  it('sums up more changes of one entity than the server keeps as one "any platform changed"', async () => {
    const away = Date.now();
    for (let n = 0; n <= REMEMBERED_PER_ENTITY; n++) {
      expect((await h.call('GET', '/v1/admin/platform/add', { token: h.tokens.developer, query: { name: `many-${n}`, maxVersion: '1.0.0' } })).status).toBe(200);
    }
    const tester = await open(port, h.tokens.tester, Date.now() - away);
    await until(() => tester.seen.length > 0);
    await settle(200);
    expect(tester.seen).toEqual([{ entity: 'platform', by: null, at: expect.any(String), missed: true }]);
    tester.socket.close();
  });

  it('tells a socket whose absence reaches back before the server started that anything its role may list may have changed', async () => {
    const tester = await open(port, h.tokens.tester, 24 * 3600_000);
    await until(() => tester.seen.length > 0);
    await settle(200);
    const entities = tester.seen.map((c) => c.entity);
    expect(entities).toContain('platform');
    expect(entities).not.toContain('user');
    expect(new Set(entities).size).toBe(entities.length);
    for (const c of tester.seen) expect(c).toEqual({ entity: c.entity, by: null, at: expect.any(String), missed: true });
    tester.socket.close();
  });

  it('tells a socket that says nothing of an absence nothing at connect', async () => {
    const tester = await open(port, h.tokens.tester);
    await settle(300);
    expect(tester.seen).toEqual([]);
    tester.socket.close();
  });
});

// Two processes on one PostgreSQL and one Redis, the documented way to run several: a change written through one
// is announced by the other to a socket that comes back to it.
describe('live lists across two processes (postgres, redis)', () => {
  const config = { redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379', redisPrefix: `wl-panel-test-${randomBytes(6).toString('hex')}` };
  let a: Awaited<ReturnType<typeof startApp>>;
  let b: FastifyInstance;
  let dropB: () => Promise<void> = async () => {};
  let port = 0;
  beforeAll(async () => {
    a = await startApp('postgres', { config });
    const started = await startApp('postgres', { config: { ...config, databaseUrl: a.databaseUrl } });
    b = started.app;
    dropB = started.cleanup;
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    port = (a.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await b?.close();
    await dropB();
    await a?.app.close();
    await a?.cleanup();
  });

  it("tells a socket that comes back to one process of a change written through the other while it was away", async () => {
    const login = await b.inject({ method: 'POST', url: '/v1/user/login', payload: { email: ADMIN.email, password: ADMIN.password } });
    const token = login.json().data.token as string;
    const listening = await open(port, token);
    await settle(MISSED_SLACK_MS + 200);
    const away = Date.now();
    const added = await b.inject({ method: 'GET', url: '/v1/admin/platform/add?name=other-process&maxVersion=1.0.0', headers: { authorization: `Bearer ${token}` } });
    expect(added.statusCode).toBe(200);
    // The socket that stayed shows the change has reached process A (through Redis; its feed hears it through NOTIFY).
    await until(() => listening.seen.length > 0);
    await settle(200);
    const back = await open(port, token, Date.now() - away);
    await until(() => back.seen.length > 0);
    expect(back.seen).toEqual([{ entity: 'platform', ids: [added.json().data.id], by: ADMIN.email, at: expect.any(String), missed: true }]);
    listening.socket.close();
    back.socket.close();
  });
});
