// The live socket refuses a handshake without a valid token and accepts a good one.
import { beforeAll, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { forEachDialect, ADMIN, type Harness } from './harness.ts';

function connect(port: number, auth?: { token: string }, query?: Record<string, string>): Promise<'connected' | string> {
  return new Promise((resolve) => {
    const socket: Socket = io(`http://127.0.0.1:${port}`, { auth, query, transports: ['websocket'], reconnection: false, timeout: 5000 });
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
