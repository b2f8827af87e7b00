// The live socket: the handshake needs a live token and a panel Origin; each role receives only the item types
// the manifests give it; an ended session (logout, password change, account deleted) loses its sockets at once.
import { beforeAll, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { forEachDialect, ADMIN, emailOf, passwordOf, type Harness } from './harness.ts';
import type { Role } from '../../kernel/manifest/types.ts';
import { ROLES } from '../../kernel/roles.ts';

function connect(port: number, auth?: { token: string }, query?: Record<string, string>, origin?: string): Promise<'connected' | string> {
  return new Promise((resolve) => {
    const socket: Socket = io(`http://127.0.0.1:${port}`, {
      auth,
      query,
      transports: ['websocket'],
      reconnection: false,
      timeout: 5000,
      extraHeaders: origin ? { origin } : undefined,
    });
    socket.on('connect', () => {
      socket.close();
      resolve('connected');
    });
    socket.on('connect_error', (error) => {
      socket.close();
      resolve(error.message);
    });
  });
}

forEachDialect('live socket', (h: Harness) => {
  let port = 0;
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as { port: number }).port;
  });

  it('accepts a handshake with a good token in auth or in the query', async () => {
    expect(await connect(port, { token: h.tokens.tester })).toBe('connected');
    expect(await connect(port, undefined, { token: h.tokens.developer })).toBe('connected');
  });

  it('refuses a handshake without a token or with a bad one', async () => {
    expect(await connect(port)).toBe('unauthorized');
    expect(await connect(port, { token: 'garbage' })).toBe('unauthorized');
  });

  it('refuses a handshake with a revoked token', async () => {
    const token = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
    await h.call('POST', '/v1/user/logout', { token });
    expect(await connect(port, { token })).toBe('unauthorized');
  });

  /** An open socket of `token` with what it receives: dataQueue items, whether the session-ended notice came, how it ended. */
  async function open(token: string) {
    const socket = io(`http://127.0.0.1:${port}`, { auth: { token }, transports: ['websocket'], reconnection: false });
    const seen = { items: [] as { type: string }[], ended: false, reason: '' };
    socket.on('dataQueue', (batch: { type: string }[]) => seen.items.push(...batch));
    socket.on('sessionEnded', () => (seen.ended = true));
    socket.on('disconnect', (reason) => (seen.reason = reason));
    await new Promise((resolve, reject) => {
      socket.on('connect', () => resolve(undefined));
      socket.on('connect_error', reject);
    });
    return { socket, seen };
  }
  const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));
  const until = async (test: () => boolean) => {
    for (let i = 0; i < 50 && !test(); i++) await settle(50);
  };
  const loginAs = async (role: Role) => (await h.login(emailOf(role), passwordOf(role))).body.data.token as string;

  it('refuses a handshake from a page of another site, and accepts one from the panel\'s host', async () => {
    expect(await connect(port, { token: h.tokens.admin }, undefined, 'https://evil.example.com')).not.toBe('connected');
    expect(await connect(port, { token: h.tokens.admin }, undefined, `http://localhost:${port}`)).toBe('connected');
    expect(await connect(port, { token: h.tokens.admin }, undefined, 'http://127.0.0.1:5173')).toBe('connected');
  });

  it('sends each role only the live items its manifests declare: the dashboard\'s build items reach admin and developer only', async () => {
    const sockets = await Promise.all(ROLES.map(async (role) => [role, await open(await loginAs(role))] as const));
    h.app.engine.live.emit('console', 'a build line');
    h.app.engine.live.emit('buildsErrors', [{ build: 'x', message: 'missing' }]);
    await until(() => sockets.filter(([role]) => role === 'admin' || role === 'developer').every(([, s]) => s.seen.items.length === 2));
    await settle();
    const received = Object.fromEntries(sockets.map(([role, s]) => [role, s.seen.items.map((i) => i.type)]));
    expect(received).toEqual({ admin: ['console', 'buildsErrors'], developer: ['console', 'buildsErrors'], tester: [], customercare: [] });
    for (const [, s] of sockets) s.socket.close();
  });

  it('refuses to emit a live item type that no manifest declares', () => {
    expect(() => h.app.engine.live.emit('secrets', 'x')).toThrow(/declared by no manifest/);
  });

  it('cuts the socket of a session that logs out at once, and only that session\'s', async () => {
    const token = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
    const mine = await open(token);
    const other = await open(h.tokens.admin);
    expect((await h.call('POST', '/v1/user/logout', { token })).status).toBe(200);
    await until(() => mine.seen.reason !== '');
    expect(mine.seen).toMatchObject({ ended: true, reason: 'io server disconnect' });
    h.app.engine.live.emit('console', 'still here');
    await until(() => other.seen.items.length > 0);
    expect(other.seen.items).toEqual([{ type: 'console', data: 'still here' }]);
    expect(other.socket.connected).toBe(true);
    other.socket.close();
  });

  it('cuts every socket of an account whose password changes, and of a deleted account', async () => {
    await h.admin('GET', '/v1/admin/user/add', { query: { email: 'live@test.io', password: 'first-pass-1', role: 'developer' } });
    const first = await open((await h.login('live@test.io', 'first-pass-1')).body.data.token);
    const second = await open((await h.login('live@test.io', 'first-pass-1')).body.data.token);
    const bystander = await open(await loginAs('developer'));
    await h.admin('GET', '/v1/admin/user/update', { query: { email: 'live@test.io', password: 'second-pass-2' } });
    await until(() => first.seen.reason !== '' && second.seen.reason !== '');
    expect([first.seen, second.seen]).toMatchObject([{ ended: true, reason: 'io server disconnect' }, { ended: true, reason: 'io server disconnect' }]);
    expect(bystander.socket.connected).toBe(true);

    const third = await open((await h.login('live@test.io', 'second-pass-2')).body.data.token);
    const id = (await h.admin('GET', '/v1/admin/user/get', { query: { email: 'live@test.io' } })).body.data.rows[0].id;
    await h.admin('GET', '/v1/admin/user/destroy', { query: { id } });
    await until(() => third.seen.reason !== '');
    expect(third.seen).toMatchObject({ ended: true, reason: 'io server disconnect' });
    expect(bystander.socket.connected).toBe(true);
    bystander.socket.close();
  });

  it('delivers hub items to a connected client as one dataQueue batch', async () => {
    const socket = io(`http://127.0.0.1:${port}`, { auth: { token: h.tokens.admin }, transports: ['websocket'], reconnection: false });
    await new Promise((resolve) => socket.on('connect', () => resolve(undefined)));
    const batch = new Promise((resolve) => socket.on('dataQueue', resolve));
    h.app.engine.live.emit('console', 'one');
    h.app.engine.live.emit('console', 'two');
    expect(await batch).toEqual([{ type: 'console', data: 'one' }, { type: 'console', data: 'two' }]);
    socket.close();
  });
});

it('closes while a client is still connected, telling the client the server went away (a SIGTERM ends the process)', async () => {
  const { startApp, ADMIN: admin } = await import('./harness.ts');
  const started = await startApp('sqlite');
  try {
    await started.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (started.app.server.address() as { port: number }).port;
    const login = await started.app.inject({ method: 'POST', url: '/v1/user/login', payload: { email: admin.email, password: admin.password } });
    const socket = io(`http://127.0.0.1:${port}`, { auth: { token: login.json().data.token }, transports: ['websocket'], reconnection: false });
    await new Promise((resolve) => socket.on('connect', () => resolve(undefined)));
    const gone = new Promise((resolve) => socket.on('disconnect', resolve));
    await started.app.close();
    expect(await gone).toBe('io server disconnect');
  } finally {
    await started.cleanup();
  }
});
