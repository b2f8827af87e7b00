// Sessions with an end: a token dies after the idle timeout without a call and at the lifetime after its login
// however busy, and its live socket goes with it. Tokens never reach the request log.
import { Writable } from 'node:stream';
import { io } from 'socket.io-client';
import { expect, it } from 'vitest';
import { DEFAULT_SESSION_IDLE, DEFAULT_SESSION_LIFETIME, duration, loadConfig } from '../../server/config.ts';
import { forEachDialect, ADMIN, startApp } from './harness.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('defaults to 12 hours idle and 30 days in all, and reads both from the environment', () => {
  expect([duration(DEFAULT_SESSION_IDLE, 'x'), duration(DEFAULT_SESSION_LIFETIME, 'x')]).toEqual([12 * 3600_000, 30 * 86400_000]);
  const config = loadConfig({ SESSION_IDLE_TIMEOUT: '30m', SESSION_LIFETIME: '7d' });
  expect([config.sessionIdleMs, config.sessionLifetimeMs]).toEqual([30 * 60_000, 7 * 86400_000]);
  expect(() => loadConfig({ SESSION_IDLE_TIMEOUT: 'soon' })).toThrow('SESSION_IDLE_TIMEOUT is not a duration like 90s, 30m, 12h or 30d: soon');
});

forEachDialect(
  'session idle timeout',
  (h) => {
    const get = (token: string) => h.call('GET', '/v1/admin/platform/get', { token });

    it('ends a session left idle past the timeout, and keeps one in use alive past it', async () => {
      const idle = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
      const busy = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
      for (let i = 0; i < 8; i++) {
        await sleep(250);
        expect((await get(busy)).status).toBe(200);
      }
      expect((await get(idle)).status).toBe(401);
      expect((await get(busy)).status).toBe(200);
    });

    it('cuts the live socket of a session that went idle', async () => {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (h.app.server.address() as { port: number }).port;
      const token = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
      const socket = io(`http://127.0.0.1:${port}`, { auth: { token }, transports: ['websocket'], reconnection: false });
      const ended = new Promise((resolve) => socket.on('sessionEnded', () => resolve('sessionEnded')));
      await new Promise((resolve) => socket.on('connect', () => resolve(undefined)));
      expect(await ended).toBe('sessionEnded');
      await sleep(100);
      expect(socket.connected).toBe(false);
    });
  },
  { config: { sessionIdleMs: 1000, sessionLifetimeMs: 60_000 } },
);

forEachDialect(
  'session lifetime',
  (h) => {
    it('ends a session at its lifetime however busy it is', async () => {
      const token = (await h.login(ADMIN.email, ADMIN.password)).body.data.token;
      const started = Date.now();
      while (Date.now() - started < 1300) {
        expect((await h.call('GET', '/v1/admin/platform/get', { token })).status).toBe(200);
        await sleep(200);
      }
      await sleep(Math.max(0, 1600 - (Date.now() - started)));
      expect((await h.call('GET', '/v1/admin/platform/get', { token })).status).toBe(401);
    });
  },
  { config: { sessionIdleMs: 60_000, sessionLifetimeMs: 1500 } },
);

it('never writes a token to the request log: not from the header, not from a socket query', async () => {
  let log = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      log += String(chunk);
      done();
    },
  });
  const started = await startApp('sqlite', { logger: { stream } });
  try {
    const login = await started.app.inject({ method: 'POST', url: '/v1/user/login', payload: { email: ADMIN.email, password: ADMIN.password } });
    const token = login.json().data.token as string;
    await started.app.inject({ url: '/v1/admin/platform/get', headers: { authorization: token } });
    await started.app.inject({ url: `/v1/admin/platform/get?token=${token}` });
    await started.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (started.app.server.address() as { port: number }).port;
    const socket = io(`http://127.0.0.1:${port}`, { query: { token }, transports: ['polling'], reconnection: false });
    await new Promise((resolve) => socket.on('connect', () => resolve(undefined)));
    socket.close();
    expect(log).toContain('/v1/admin/platform/get?token=[masked]');
    expect(log).not.toContain(token);
  } finally {
    await started.app.close();
    await started.cleanup();
  }
});
