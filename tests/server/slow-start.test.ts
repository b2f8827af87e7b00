// A start that waits: a server starting on a PostgreSQL where another process holds the start's lock (it is making
// the schema or running a long migration) waits for it and then comes up, however long past Fastify's default 10 s
// a plugin may take. Before, it stopped with "Plugin did not start in time: 'db'".
import { afterAll, describe, expect, it } from 'vitest';
import { whileLocked } from '../../server/db/locks.ts';
import { startApp } from './harness.ts';

const HELD_MS = 11_000;

describe('a start waiting for another process on the same PostgreSQL', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it(`comes up once the other process's start ends, ${HELD_MS / 1000} s later`, { timeout: HELD_MS + 60_000 }, async () => {
    // The first server makes the database; then it holds the start lock as a process starting beside it would.
    const first = await startApp('postgres');
    cleanups.push(async () => {
      await first.app.close();
      await first.cleanup();
    });
    const startedAt = Date.now();
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const released = whileLocked(first.app.db, first.app.caps, 'start', async () => {
      locked();
      await new Promise((resolve) => setTimeout(resolve, HELD_MS));
    });
    await holding;
    const starting = startApp('postgres', { config: { databaseUrl: first.databaseUrl } });
    const [second] = await Promise.all([starting, released]);
    cleanups.unshift(async () => {
      await second.app.close();
      await second.cleanup();
    });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(HELD_MS);
    const health = await second.app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
  });
});
