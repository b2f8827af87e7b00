// Live lists: a committed write reaches, as an "entity changed" item naming the record and who wrote it, the live
// sockets of exactly the roles that may list the entity; others never hear of it.
import { beforeAll, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import { forEachDialect, emailOf, passwordOf, type Harness } from './harness.ts';
import type { Role } from '../../kernel/manifest/types.ts';
import type { EntityChanged } from '../../server/plugins/live-lists.ts';

forEachDialect('live lists', (h: Harness) => {
  let port = 0;
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as { port: number }).port;
  });

  async function open(token: string) {
    const socket = io(`http://127.0.0.1:${port}`, { auth: { token }, transports: ['websocket'], reconnection: false });
    const seen: EntityChanged[] = [];
    socket.on('entityChanged', (batch: EntityChanged[]) => seen.push(...batch));
    await new Promise((resolve, reject) => {
      socket.on('connect', () => resolve(undefined));
      socket.on('connect_error', reject);
    });
    return { socket, seen };
  }
  const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));
  const until = async (test: () => boolean) => {
    for (let i = 0; i < 60 && !test(); i++) await settle();
  };
  const roles: Role[] = ['admin', 'developer', 'tester', 'customercare'];
  const openAll = async () =>
    Object.fromEntries(await Promise.all(roles.map(async (role) => [role, await open((await h.login(emailOf(role), passwordOf(role))).body.data.token)] as const)));

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
});
