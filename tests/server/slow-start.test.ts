// A start that waits: a server starting on a PostgreSQL where another process holds the start's lock (it is making
// the schema or running a long migration) waits for it and then comes up, however long past Fastify's default 10 s
// a plugin may take. Before, it stopped with "Plugin did not start in time: 'db'".
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from './harness.ts';

const HELD_MS = 11_000;

describe('a start waiting for another process on the same PostgreSQL', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it(`comes up once the other process's start ends, ${HELD_MS / 1000} s later`, { timeout: HELD_MS + 60_000 }, async () => {
    // The first start makes the database; then "another process" (a session of this test) holds the start lock.
    const first = await startApp('postgres');
    cleanups.push(first.cleanup);
    await first.app.close();
    const other = new pg.Client({ connectionString: first.databaseUrl });
    await other.connect();
    cleanups.unshift(() => other.end());
    await other.query(`select pg_advisory_lock(hashtextextended('wl-panel:start', 0))`);
    const startedAt = Date.now();
    const starting = startApp('postgres', { config: { databaseUrl: first.databaseUrl } });
    const released = new Promise<void>((resolve) =>
      setTimeout(() => void other.query(`select pg_advisory_unlock(hashtextextended('wl-panel:start', 0))`).then(() => resolve()), HELD_MS),
    );
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
