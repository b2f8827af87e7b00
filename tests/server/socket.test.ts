// The live socket: the handshake needs a live token and a panel Origin; each role receives only the item types
// the manifests give it; an ended session (logout, password change, account deleted) loses its sockets at once.
// A session holds at most LIVE_SOCKETS_PER_SESSION sockets (over every process), and a connection that floods
// events is cut, each with one audit row; a panel's tabs and reconnects stay within both.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import type { FastifyInstance } from 'fastify';
import { forEachDialect, startApp, ADMIN, emailOf, passwordOf, type Harness } from './harness.ts';
import { BURST_SECONDS, DEFAULT_LIVE_LIMITS, TOO_MANY_EVENTS_EVENT } from '../../server/plugins/live-limits.ts';
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

/** One handshake of `token` on `port`: the connected socket (left open), or the connect_error's message and data. */
function attempt(port: number, token: string): Promise<{ socket?: Socket; error?: { message: string; data?: unknown } }> {
  return new Promise((resolve) => {
    const socket = io(`http://127.0.0.1:${port}`, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    socket.on('connect', () => resolve({ socket }));
    socket.on('connect_error', (error) => {
      socket.close();
      resolve({ error: { message: error.message, data: (error as Error & { data?: unknown }).data } });
    });
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tries a handshake until one connects (the server notices a closed socket a moment after the client closed it). */
async function attemptUntilConnected(port: number, token: string) {
  let last = await attempt(port, token);
  for (let i = 0; i < 40 && !last.socket; i++) {
    await pause(50);
    last = await attempt(port, token);
  }
  return last;
}

const closeAll = (results: { socket?: Socket }[]) => results.forEach((r) => r.socket?.close());

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

  /** The audit rows of the live socket's limits, newest first. */
  const limitRows = async () =>
    (await h.admin('GET', '/v1/admin/userlogs/get', { query: { baseUrl: '/socket.io', pageSize: 100 } })).body.data.rows as {
      userEmail: string | null;
      routePath: string;
      outcome: string;
      detail: string;
    }[];
  /** The rows written since there were `before`, once `expected` of them are there (and a moment for any extra one). */
  const newRows = async (before: number, expected: number) => {
    for (let i = 0; i < 50 && (await limitRows()).length < before + expected; i++) await settle(50);
    await settle(200);
    const rows = await limitRows();
    return rows.slice(0, rows.length - before);
  };

  it('refuses the sockets of one session past LIVE_SOCKETS_PER_SESSION with a readable error, however many come at once; other sessions get in', async () => {
    const { socketsPerSession } = DEFAULT_LIVE_LIMITS;
    const token = await loginAs('tester');
    const before = (await limitRows()).length;
    const results = await Promise.all(Array.from({ length: socketsPerSession + 5 }, () => attempt(port, token)));
    expect(results.filter((r) => r.socket).length).toBe(socketsPerSession);
    const refused = results.filter((r) => r.error).map((r) => r.error);
    expect(refused).toHaveLength(5);
    for (const error of refused) {
      expect(error).toEqual({
        message: expect.stringMatching(new RegExp(`already has ${socketsPerSession} live sockets open.*LIVE_SOCKETS_PER_SESSION`)),
        data: { code: 'ERR_RATE_LIMIT', limit: socketsPerSession },
      });
    }
    const other = await attempt(port, await loginAs('tester'));
    expect(other.socket?.connected).toBe(true);
    const rows = await newRows(before, 5);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row).toMatchObject({ userEmail: emailOf('tester'), routePath: 'tooManySockets', outcome: 'throttled' });
      expect(row.detail).toBe(`live socket refused: the session already has ${socketsPerSession} open (limit ${socketsPerSession})`);
    }
    closeAll([...results, other]);
  });

  it('lets a socket in once another socket of the full session closed', async () => {
    const token = await loginAs('customercare');
    const results = await Promise.all(Array.from({ length: DEFAULT_LIVE_LIMITS.socketsPerSession }, () => attempt(port, token)));
    expect(results.every((r) => r.socket)).toBe(true);
    expect((await attempt(port, token)).error?.data).toEqual({ code: 'ERR_RATE_LIMIT', limit: DEFAULT_LIVE_LIMITS.socketsPerSession });
    results[0].socket!.close();
    const again = await attemptUntilConnected(port, token);
    expect(again.socket?.connected).toBe(true);
    closeAll([...results, again]);
  });

  it('cuts a connection that sends events past LIVE_EVENTS_PER_SECOND, says why, and writes one audit row for the flood', async () => {
    const token = await loginAs('developer');
    const before = (await limitRows()).length;
    const flooder = await open(token);
    const sibling = await open(token);
    const told: unknown[] = [];
    flooder.socket.on(TOO_MANY_EVENTS_EVENT, (payload) => told.push(payload));
    // Far more than a bucket holds (ten seconds' worth), sent at once: it runs dry long before these are through.
    for (let i = 0; i < 20 * DEFAULT_LIVE_LIMITS.eventsPerSecond * BURST_SECONDS; i++) flooder.socket.emit('subscribe', { entity: 'platform', i });
    await until(() => flooder.seen.reason !== '');
    expect(flooder.seen.reason).toBe('io server disconnect');
    expect(told).toEqual([{ message: expect.stringMatching(/more than 10 events a second \(LIVE_EVENTS_PER_SECOND\)/), code: 'ERR_RATE_LIMIT' }]);
    const rows = await newRows(before, 1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userEmail: emailOf('developer'), routePath: 'tooManyEvents', outcome: 'throttled' });
    expect(rows[0].detail).toMatch(/^live socket cut: \d+ packets in [\d.]+ s, past 10 a second \(bursts of 100\)$/);
    // The limit is the connection's: the session's other socket goes on hearing its items.
    h.app.engine.live.emit('console', 'after the flood');
    await until(() => sibling.seen.items.length > 0);
    expect(sibling.socket.connected).toBe(true);
    sibling.socket.close();
  });

  it("never limits a panel's use: several tabs of one session each reconnecting, and a burst of events under the bucket", async () => {
    const token = await loginAs('admin');
    const before = (await limitRows()).length;
    // Five tabs that each reconnect three times, the old sockets possibly not yet noticed as gone: 20 at worst.
    const tabs = await Promise.all(Array.from({ length: 5 }, () => attempt(port, token)));
    for (let round = 0; round < 3; round++) {
      for (let tab = 0; tab < tabs.length; tab++) {
        tabs[tab].socket?.close();
        tabs[tab] = await attempt(port, token);
      }
    }
    expect(tabs.map((t) => t.error?.message ?? 'connected')).toEqual(Array(5).fill('connected'));
    const busy = await open(token);
    for (let i = 0; i < DEFAULT_LIVE_LIMITS.eventsPerSecond * BURST_SECONDS - 10; i++) busy.socket.emit('subscribe', { entity: 'platform', i });
    h.app.engine.live.emit('console', 'still listening');
    await until(() => busy.seen.items.length > 0);
    expect(busy.socket.connected).toBe(true);
    expect(await newRows(before, 0)).toEqual([]);
    closeAll(tabs);
    busy.socket.close();
  });
});

// Two processes on one PostgreSQL and one Redis: a session's sockets are counted on both together.
describe('live sockets per session across two processes (postgres, redis)', () => {
  const config = {
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    redisPrefix: `wl-panel-test-${randomBytes(6).toString('hex')}`,
    liveSocketsPerSession: 3,
  };
  let a: Awaited<ReturnType<typeof startApp>>;
  let b: FastifyInstance;
  let dropB: () => Promise<void> = async () => {};
  const ports = { a: 0, b: 0 };
  beforeAll(async () => {
    a = await startApp('postgres', { config });
    const started = await startApp('postgres', { config: { ...config, databaseUrl: a.databaseUrl } });
    b = started.app;
    dropB = started.cleanup;
    for (const [name, app] of [['a', a.app], ['b', b]] as const) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      ports[name] = (app.server.address() as { port: number }).port;
    }
  });
  afterAll(async () => {
    await b?.close();
    await dropB();
    await a?.app.close();
    await a?.cleanup();
  });

  it('refuses the socket past the limit on either process when the others are open on both, and frees the slot when one closes', async () => {
    const login = async () => (await a.app.inject({ method: 'POST', url: '/v1/user/login', payload: { email: ADMIN.email, password: ADMIN.password } })).json().data.token as string;
    const token = await login();
    const open = [await attempt(ports.a, token), await attempt(ports.a, token), await attempt(ports.b, token)];
    expect(open.every((r) => r.socket)).toBe(true);
    const limited = { code: 'ERR_RATE_LIMIT', limit: 3 };
    expect((await attempt(ports.a, token)).error?.data).toEqual(limited);
    expect((await attempt(ports.b, token)).error?.data).toEqual(limited);
    const other = await attempt(ports.b, await login());
    expect(other.socket?.connected).toBe(true);
    open[0].socket!.close();
    const again = await attemptUntilConnected(ports.b, token);
    expect(again.socket?.connected).toBe(true);
    closeAll([...open, other, again]);
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
