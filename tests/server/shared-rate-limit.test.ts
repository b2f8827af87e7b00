// The public calls' limit shared through Redis (server/plugins/public-rate-limit.ts): two limiters standing for two
// processes count one address together against PUBLIC_RATE_LIMIT; when Redis goes away each counts on its own at
// once (said once), and when it is back they share again. Redis is reached through a proxy the test cuts and restores.
// Then two servers (each dialect) on one Redis: one address, or one IPv6 /64, calling both gets one count.
import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { AddressBuckets, SharedLimit, slidingWait } from '../../server/plugins/public-rate-limit.ts';
import { DIALECTS, startApp } from './harness.ts';

const REDIS = new URL(process.env.REDIS_URL || 'redis://127.0.0.1:6379');

/** A TCP proxy to Redis that can be cut (every connection dropped, nothing accepted) and restored on the same port. */
function redisProxy() {
  const sockets = new Set<Socket>();
  let server: Server;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(REDIS.port || 6379), REDIS.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s)).on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  return {
    start,
    url: () => `redis://127.0.0.1:${port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

describe('the public calls limit shared through Redis', () => {
  const prefix = `wl-panel-test-${randomBytes(6).toString('hex')}`;
  const proxy = redisProxy();
  const logs: string[][] = [[], []];
  let limiters: SharedLimit[] = [];
  const PER_MINUTE = 10;

  beforeAll(async () => {
    await proxy.start();
    limiters = logs.map((log) => new SharedLimit({ url: proxy.url(), prefix, perMinute: PER_MINUTE, local: new AddressBuckets(PER_MINUTE), log: (line) => log.push(line) }));
    // Both connected (a call during the start is counted locally, as the process is starting).
    const probe = createClient({ url: proxy.url() });
    await probe.connect();
    await probe.close();
    await new Promise((r) => setTimeout(r, 200));
  });

  afterAll(async () => {
    await Promise.all(limiters.map((l) => l.close()));
    const redis = createClient({ url: REDIS.href });
    await redis.connect();
    for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
    await redis.close();
  });

  it('counts an address over both processes: the limit-th call passes, the next ones on either are refused', async () => {
    const answers: number[] = [];
    for (let i = 0; i < PER_MINUTE + 2; i++) answers.push(await limiters[i % 2].take('203.0.113.5'));
    expect(answers.slice(0, PER_MINUTE)).toEqual(Array(PER_MINUTE).fill(0));
    expect(answers[PER_MINUTE]).toBeGreaterThan(0);
    expect(answers[PER_MINUTE + 1]).toBeGreaterThan(0);
    // Another address has its own count.
    expect(await limiters[1].take('203.0.113.6')).toBe(0);
    expect(logs).toEqual([[], []]);
  });

  it('counts on each process alone while Redis is away, says so once, and shares again when it is back', async () => {
    await proxy.cut();
    const answers: number[] = [];
    for (let i = 0; i < PER_MINUTE + 1; i++) answers.push(await limiters[0].take('203.0.113.5'));
    // Its own bucket was full: the address that Redis had refused passes again, up to this process's own limit.
    expect(answers).toEqual([...Array(PER_MINUTE).fill(0), expect.any(Number)]);
    expect(answers[PER_MINUTE]).toBeGreaterThan(0);
    expect(await limiters[1].take('203.0.113.7')).toBe(0);
    expect(logs.map((l) => l.length)).toEqual([1, 1]);
    expect(logs[0][0]).toMatch(/^PUBLIC_RATE_LIMIT: Redis cannot count the device calls .*; each process limits its own until it can$/);

    await proxy.start();
    for (const end = Date.now() + 8000; logs.some((l) => l.length < 2) && Date.now() < end; ) {
      await Promise.all(limiters.map((l) => l.take('203.0.113.8')));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(logs.map((l) => l[1])).toEqual(Array(2).fill('PUBLIC_RATE_LIMIT: Redis counts the device calls of every process again'));
    // Shared again: the address refused before the outage is refused by Redis's count on both.
    expect(await limiters[0].take('203.0.113.5')).toBeGreaterThan(0);
    expect(await limiters[1].take('203.0.113.5')).toBeGreaterThan(0);
  });

  it('share a burst smaller than the minute: its calls pass on either at once up to the burst, then both refuse for a moment', async () => {
    const prefix = `wl-panel-test-${randomBytes(6).toString('hex')}`;
    const burstLimiters = [0, 1].map(() => new SharedLimit({ url: REDIS.href, prefix, perMinute: 60, burst: 4, local: new AddressBuckets(60, 100, 4), log: () => {} }));
    try {
      for (const end = Date.now() + 5000; burstLimiters.some((l) => !l.shared) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
      const waits = [];
      for (let i = 0; i < 6; i++) waits.push(await burstLimiters[i % 2].take('203.0.113.60'));
      expect(waits.slice(0, 4)).toEqual([0, 0, 0, 0]);
      // 4 calls at 60 a minute: a 4 s window, so the refused wait at most that long, not a minute.
      for (const wait of waits.slice(4)) {
        expect(wait).toBeGreaterThanOrEqual(1);
        expect(wait).toBeLessThanOrEqual(8);
      }
    } finally {
      for (const limiter of burstLimiters) await limiter.close();
    }
  });

  it('tells a refused address when it may call again, as the minute slides', () => {
    // Limit 10. 20 calls in the previous window, 30 s into this one: half of them still count (10), and one more
    // call fits once a twentieth of the minute has passed.
    expect(slidingWait(10, 0, 20, 30_000)).toBe(3);
    // 10 calls in this window and none before: at the window's end (30 s) they all count as the previous window's,
    // and a tenth of the next minute (6 s) must pass.
    expect(slidingWait(10, 10, 0, 30_000)).toBe(30 + 6);
    expect(slidingWait(10, 5, 10, 0)).toBe(36);
  });
});

for (const dialect of DIALECTS) {
  describe(`two servers on one Redis (${dialect})`, () => {
    const prefix = `wl-panel-test-${randomBytes(6).toString('hex')}`;
    const PER_MINUTE = 6;
    const servers: { app: FastifyInstance; cleanup: () => Promise<void> }[] = [];

    beforeAll(async () => {
      for (let i = 0; i < 2; i++) {
        servers.push(await startApp(dialect, { config: { redisUrl: REDIS.href, redisPrefix: prefix, publicRateLimit: { perMinute: PER_MINUTE } }, log: () => {} }));
      }
      // Calls made while a server is still connecting are counted by it alone (it is starting).
      for (const end = Date.now() + 5000; servers.some((s) => !s.app.publicSharedLimit?.shared) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    });

    afterAll(async () => {
      for (const { app, cleanup } of servers) {
        await app.close();
        await cleanup();
      }
      const redis = createClient({ url: REDIS.href });
      await redis.connect();
      for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
      await redis.close();
    });

    const lookupFrom = (server: number, remoteAddress: string) =>
      servers[server].app.inject({ method: 'GET', url: '/v1/combination/get', remoteAddress }).then((r) => r.statusCode);

    it("share one address's count: its calls pass on either up to the limit, then both refuse", async () => {
      expect(servers.map((s) => s.app.publicSharedLimit?.shared)).toEqual([true, true]);
      const statuses = [];
      for (let i = 0; i < PER_MINUTE + 2; i++) statuses.push(await lookupFrom(i % 2, '203.0.113.40'));
      expect(statuses).toEqual([...Array(PER_MINUTE).fill(404), 429, 429]);
      expect(await lookupFrom(0, '203.0.113.41')).toBe(404);
    });

    it('share the count of one IPv6 /64 however its addresses are spread over them', async () => {
      const statuses = [];
      for (let i = 0; i < 40; i++) statuses.push(await lookupFrom(i % 2, `2001:db8:40:7:${((i * 7919) % 0x10000).toString(16)}::${i.toString(16)}`));
      expect(statuses).toEqual([...Array(PER_MINUTE).fill(404), ...Array(40 - PER_MINUTE).fill(429)]);
    });
  });
}
