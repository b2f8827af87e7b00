// List reads at once (server/db/read-pool.ts): one process runs at most a few (a SQLite worker or a PostgreSQL
// connection each); the others wait their turn, and a read's time limit counts from when it was asked for, waiting
// included, so a read that waited too long answers the same 503 as one that ran too long.
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { expect, it } from 'vitest';
import { UnavailableError } from '../../server/errors.ts';
import { createReads } from '../../server/db/read-pool.ts';
import { forEachDialect } from './harness.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

forEachDialect('list reads at once', (h) => {
  it('run one at a time when the limit is one: a read waiting past its time limit answers a 503, the next one is served', async () => {
    const engine = h.app.engine;
    const sqlite = engine.caps.name === 'sqlite';
    const reads = createReads({ db: engine.db, file: sqlite ? join(engine.dataDir, 'panel.sqlite') : undefined, workers: 1, atOnce: 1, timeoutMs: 300 });
    try {
      // Runs for a second or more: a count to five million (SQLite), a sleep (PostgreSQL).
      const slow = CompiledQuery.raw(
        sqlite ? 'with recursive c(x) as (select 1 union all select x + 1 from c where x < 5000000) select count(*) as n from c' : 'select pg_sleep(1) as n',
      );
      const quick = CompiledQuery.raw('select 1 as one');
      const outcome = (p: Promise<unknown>) => p.then(() => 'rows', (error: unknown) => (error instanceof UnavailableError ? error.message : String(error)));
      const [first, second] = await Promise.all([outcome(reads.rows(slow)), outcome(reads.rows(quick))]);
      // PostgreSQL cannot tell a slow statement from a database gone silent: both are no answer in time.
      const stopped = sqlite ? /^The list query took longer than 300 ms and was stopped/ : /^The database did not answer in time: the list query was stopped after 300 ms/;
      expect(first).toMatch(stopped);
      // The quick read waited behind the slow one (SQLite: stopped at 300 ms; PostgreSQL: its statement runs on to 1 s).
      expect(second).toMatch(stopped);
      await sleep(1200);
      expect(await reads.rows(quick)).toEqual([{ one: 1 }]);
    } finally {
      await reads.close();
    }
  });

  it('waits its yield before it starts when the event loop was busy, and still answers', async () => {
    const engine = h.app.engine;
    const sqlite = engine.caps.name === 'sqlite';
    const yieldMs = 300;
    const reads = createReads({ db: engine.db, file: sqlite ? join(engine.dataDir, 'panel.sqlite') : undefined, workers: 1, atOnce: 1, timeoutMs: 5000, yieldMs });
    try {
      const quick = CompiledQuery.raw('select 1 as one');
      // The event loop busy for 200 ms (as under a flood of calls); the read is asked for right after.
      const until = Date.now() + 200;
      while (Date.now() < until);
      const asked = await new Promise<number>((resolve) => setTimeout(() => resolve(Date.now()), 0));
      expect(await reads.rows(quick)).toEqual([{ one: 1 }]);
      expect(Date.now() - asked).toBeGreaterThanOrEqual(yieldMs - 5);
    } finally {
      await reads.close();
    }
  });
  it('waits the longer shared yield while the busy event loop also serves other calls, and only the short one for lists alone', async () => {
    const engine = h.app.engine;
    const sqlite = engine.caps.name === 'sqlite';
    const sharedYieldMs = 1000;
    const reads = createReads({ db: engine.db, file: sqlite ? join(engine.dataDir, 'panel.sqlite') : undefined, workers: 1, atOnce: 1, timeoutMs: 5000, yieldMs: 0, sharedYieldMs });
    const quick = CompiledQuery.raw('select 1 as one');
    const spin = (ms: number) => {
      for (const until = Date.now() + ms; Date.now() < until; );
    };
    const timedRead = async () => {
      const asked = await new Promise<number>((resolve) => setTimeout(() => resolve(Date.now()), 0));
      expect(await reads.rows(quick)).toEqual([{ one: 1 }]);
      return Date.now() - asked;
    };
    try {
      // Busy with list work alone (no other call comes in): the read starts at once.
      spin(200);
      expect(await timedRead()).toBeLessThan(sharedYieldMs / 2);
      // Busy while /healthz calls keep coming: every 50 ms window holds calls and a busy loop.
      for (let round = 0; round < 6; round++) {
        await Promise.all(Array.from({ length: 5 }, () => h.app.inject({ url: '/healthz' })));
        spin(60);
      }
      expect(await timedRead()).toBeGreaterThanOrEqual(sharedYieldMs - 5);
    } finally {
      await reads.close();
    }
  });
});
