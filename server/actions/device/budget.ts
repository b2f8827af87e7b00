// The budget of the anonymous device work (issue 32). Every write of a public device call (a device joining an A/B
// collection, an app info or an achieved goal report) waits its turn in one queue per server, apart from the staff's
// calls. Measured first (`npm run bench -- device-flood`, 30 addresses each at PUBLIC_RATE_LIMIT): on SQLite the
// event loop was 99 % busy, half of it in the commits of the device writes (each its own transaction, each a sync to
// the disk, run on the event loop by better-sqlite3); on PostgreSQL the devices' transactions, queued on the
// experiment's lock, held the pool's connections while the staff's calls waited for one. So: on SQLite the queue's
// writes go in batches, one transaction and one commit for up to `batch` of them (each in its own savepoint, so one
// refused report undoes only itself), one batch at a time, the event loop left to the other calls for 3x as long as a
// batch took; on PostgreSQL at most `atOnce` of them hold a connection of the pool. Past `queued` waiting, or after
// waiting `maxWaitMs`, a device call is refused 429 ERR_RATE_LIMIT with Retry-After, like a device over its limit.
// What this leaves on SQLite: each batch's commit still syncs on the event loop (better-sqlite3 is synchronous), so
// a call arriving meanwhile waits for that sync (8-60 ms on a busy disk): /healthz's p99 during a flood is that.
import { open, type FileHandle } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../../core/context.ts';
import { tooManyRequests } from '../../errors.ts';

export interface DeviceWritesOptions {
  /** Transactions of device writes at once (PostgreSQL: connections of the pool they may hold). */
  atOnce: number;
  /** Writes waiting their turn at most; past it a device call is refused. */
  queued: number;
  /** Writes one transaction carries. */
  batch: number;
  /** A write that waited this long is refused instead of run (its device has likely given up). */
  maxWaitMs: number;
  /** The share of the time the device writes may take: after a batch of d ms the next waits d * (1 / share - 1) ms. */
  share: number;
}

/**
 * SQLite: one transaction at a time is the file's rule anyway; 64 writes of ~60 us each and one commit (a sync to the
 * disk of 3-8 ms on this shared machine, up to 60 ms at times) block the event loop for ~10 ms, and the next batch
 * waits 3x as long, so the device writes take at most a quarter of the event loop (~1,500 writes/s). PostgreSQL: the
 * commit waits on the database, not on the event loop; 3 of the pool's 10 connections, the list reads having 2.
 */
export const DEFAULT_DEVICE_WRITES: Record<'sqlite' | 'postgres', DeviceWritesOptions> = {
  sqlite: { atOnce: 1, queued: 1000, batch: 64, maxWaitMs: 2000, share: 0.25 },
  postgres: { atOnce: 3, queued: 300, batch: 1, maxWaitMs: 2000, share: 1 },
};

/** Seconds a device refused for the budget is told to wait. */
const RETRY_AFTER_S = 1;

interface Job {
  lockKey: string;
  body: (trx: Kysely<any>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  at: number;
}

const overBudget = () => tooManyRequests(RETRY_AFTER_S, `The server is busy with device calls; retry in ${RETRY_AFTER_S} s`);

/** One server's queue of device writes. */
export class DeviceWrites {
  private queue: Job[] = [];
  private head = 0;
  private running = 0;
  constructor(
    private readonly engine: Pick<Engine, 'caps' | 'db'>,
    readonly options: DeviceWritesOptions,
  ) {}

  /** Writes waiting their turn. */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  /**
   * Runs `body` in a transaction holding the lock `lockKey` (engine.caps.lockKey), when the budget allows;
   * rejects with a 429 when too many device writes wait already.
   */
  write<T>(lockKey: string, body: (trx: Kysely<any>) => Promise<T>): Promise<T> {
    if (this.waiting >= this.options.queued) return Promise.reject(overBudget());
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ lockKey, body, resolve: resolve as (value: unknown) => void, reject, at: Date.now() });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.options.atOnce && this.waiting > 0) {
      const jobs = this.take();
      if (!jobs.length) continue;
      this.running += 1;
      const started = performance.now();
      let released = false;
      // Once the batch's transaction has ended (committed or not): on SQLite its devices still wait for the WAL's
      // sync, which runs on libuv's threads, and the next batch commits meanwhile instead of queueing behind the
      // sync (a join waited for up to two syncs of 3-8 ms; issue 34).
      const release = () => {
        if (released) return;
        released = true;
        // A full batch means the writes outrun the budget (a flood): the event loop gets its share back. A batch not
        // full is the writes keeping up, and the next goes after the calls that arrived meanwhile (setImmediate): a
        // pause there held every starting device of a fleet's normal day for nothing (issue 34, 0.1x of /healthz).
        const full = jobs.length >= this.options.batch;
        const pause = full ? (performance.now() - started) * (1 / this.options.share - 1) : 0;
        // The next batch after the event loop has served what arrived meanwhile (the staff's calls among it).
        const next = () => {
          this.running -= 1;
          this.pump();
        };
        if (pause >= 1) setTimeout(next, pause);
        else setImmediate(next);
      };
      void this.run(jobs, release).finally(release);
    }
  }

  private take(): Job[] {
    const jobs: Job[] = [];
    const oldest = Date.now() - this.options.maxWaitMs;
    while (jobs.length < this.options.batch && this.waiting > 0) {
      const job = this.queue[this.head++];
      if (job.at < oldest) job.reject(overBudget());
      else jobs.push(job);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return jobs;
  }

  private async run(jobs: Job[], release: () => void): Promise<void> {
    const { caps } = this.engine;
    // One write alone needs no savepoint: its failure undoes only itself either way (three statements fewer).
    if (jobs.length === 1) {
      const [job] = jobs;
      try {
        let value: unknown;
        await this.committed(release, async (on) => {
          value = await on.transaction().execute(async (trx) => {
            await caps.lockKey(trx, job.lockKey);
            return job.body(trx);
          });
        });
        job.resolve(value);
      } catch (error) {
        job.reject(error);
      }
      return;
    }
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      await this.committed(release, async (db) => db.transaction().execute(async (trx) => {
        for (const job of jobs) {
          await sql`savepoint device_write`.execute(trx);
          try {
            await caps.lockKey(trx, job.lockKey);
            const value = await job.body(trx);
            await sql`release device_write`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await sql`rollback to device_write`.execute(trx);
            await sql`release device_write`.execute(trx);
            outcomes.push({ ok: false, value: error });
          }
        }
      }));
    } catch (error) {
      // Nothing was committed: the writes that had gone through fail with the transaction.
      jobs.forEach((job, i) => job.reject(outcomes[i] && !outcomes[i].ok ? outcomes[i].value : error));
      return;
    }
    jobs.forEach((job, i) => (outcomes[i].ok ? job.resolve(outcomes[i].value) : job.reject(outcomes[i].value)));
  }

  /** The WAL file, opened at the first batch and kept (an open and a close per batch cost 5 % of a lookup run). */
  private walHandle?: Promise<FileHandle | undefined>;
  private closed = false;

  /**
   * Runs the batch's transaction and resolves once it is on the disk. SQLite: with synchronous=FULL the commit's sync
   * of the WAL (2 ms here, up to 60 on a busy disk) ran on the event loop, every other call waiting behind it; the
   * batch commits with synchronous=NORMAL instead (its WAL frames written, not synced) and the WAL file is synced by
   * libuv's threads before any of its devices is answered: on the disk before acknowledged, as with FULL, the event
   * loop free meanwhile. Both settings are made on the batch's one connection, held throughout, so no other write
   * ever commits with NORMAL. PostgreSQL, or no WAL file to open: the commit as it is.
   */
  private async committed(release: () => void, body: (db: Kysely<any>) => Promise<void>): Promise<void> {
    const { db, caps } = this.engine;
    if (!caps.writesOnEventLoop || this.closed) return body(db);
    const opened = (this.walHandle ??= caps
      .workerWriteFile(db)
      .then((file) => (file ? open(`${file}-wal`, 'r') : undefined))
      .catch(() => undefined));
    const wal = await opened;
    if (!wal) {
      // No WAL file yet (nothing written so far): tried again at the next batch.
      if (this.walHandle === opened) this.walHandle = undefined;
      return body(db);
    }
    await db.connection().execute(async (connection) => {
      await sql`pragma synchronous = NORMAL`.execute(connection);
      try {
        await body(connection);
      } finally {
        await sql`pragma synchronous = FULL`.execute(connection);
      }
    });
    // Committed: the next batch may go while this one's WAL frames are synced (the sync covers them whenever it ends).
    release();
    try {
      await wal.datasync();
    } catch (error) {
      // A handle that cannot sync is not kept: the next batch opens the file again.
      if (this.walHandle === opened) this.walHandle = undefined;
      await wal.close().catch(() => undefined);
      throw error;
    }
  }

  /** Closes the kept WAL file (the server stops); later writes commit with synchronous=FULL. */
  async close(): Promise<void> {
    this.closed = true;
    const wal = await this.walHandle;
    this.walHandle = undefined;
    await wal?.close().catch(() => undefined);
  }
}

const budgets = new WeakMap<object, DeviceWrites>();

const defaultsOf = (engine: Pick<Engine, 'caps'>) => DEFAULT_DEVICE_WRITES[engine.caps.writesOnEventLoop ? 'sqlite' : 'postgres'];

/** Sets the device writes' budget of a server: the dialect's defaults, with the `options` given over them. */
export function registerDeviceWrites(engine: Pick<Engine, 'caps' | 'db'>, options: Partial<DeviceWritesOptions> = {}): DeviceWrites {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const writes = new DeviceWrites(engine, { ...defaultsOf(engine), ...given });
  budgets.set(engine, writes);
  return writes;
}

/** The device writes' budget of an engine (the dialect's defaults when its server set none). */
export function deviceWrites(engine: Pick<Engine, 'caps' | 'db'>): DeviceWrites {
  return budgets.get(engine) ?? registerDeviceWrites(engine);
}
