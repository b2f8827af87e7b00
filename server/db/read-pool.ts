// List reads off the event loop (issue 14). better-sqlite3 runs every statement synchronously on the thread that
// calls it, so one slow list query froze the whole server (/healthz, the device lookup). On SQLite the list's row
// and count queries run instead on worker threads, each with its own read-only connection to the same file (WAL:
// readers see every committed write and never block the writer). Every read has a time limit: a worker still busy
// past it is terminated (that interrupts SQLite mid-statement) and replaced, and the request gets a 503 that says
// so. On PostgreSQL the reads go to the pool as before, where statement_timeout already limits them.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery, Kysely } from 'kysely';
import { join } from 'node:path';
import { UnavailableError } from '../errors.ts';
import { DEFAULT_STATEMENT_TIMEOUT_MS, isPostgresUrl } from './database.ts';

export interface Reads {
  /** Rows of a compiled SELECT. */
  rows<R = Record<string, unknown>>(query: CompiledQuery): Promise<R[]>;
  close(): Promise<void>;
}

export interface ReadPoolOptions {
  /** The SQLite file; undefined = read through `db` itself (PostgreSQL). */
  file?: string;
  db: Kysely<any>;
  /** Worker threads (SQLITE_READ_WORKERS, default 0 = read on the event loop as before). */
  workers?: number;
  /** How long one read may run before it is stopped with a 503 (DB_STATEMENT_TIMEOUT_MS, default 15 s). */
  timeoutMs: number;
}

/**
 * Off by default for now: with workers on, tests/server/refuse-before-reading.test.ts's server process (started with
 * `node --import tsx`) does not exit on SIGTERM after its upload tests, and the cause is not found yet. Set
 * SQLITE_READ_WORKERS=2 to run list reads off the event loop (what `npm run bench lists` measures).
 */
export const DEFAULT_READ_WORKERS = 0;

export const tooSlow = (timeoutMs: number) =>
  new UnavailableError(
    `The list query took longer than ${timeoutMs >= 1000 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`} and was stopped; narrow the filters or try again`,
    5,
  );

// CommonJS, run with eval and without the parent's flags: no TypeScript loader (tsx's --import) runs in the worker, which
// also kept a server started with `node --import tsx` from exiting on SIGTERM.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 1000');
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size > 500) statements.clear();
      statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});
`;

interface Job {
  id: number;
  query: CompiledQuery;
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

class Slot {
  worker!: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
  constructor(private readonly pool: ReadPool) {
    this.start();
  }
  start() {
    this.worker = new Worker(WORKER, { eval: true, execArgv: [], workerData: { file: this.pool.file, driver: this.pool.driver } });
    this.worker.on('message', (message: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const job = this.job;
      if (!job || job.id !== message.id) return;
      this.finish();
      if (message.error?.code?.startsWith('SQLITE_BUSY')) job.reject(new UnavailableError('The database is locked by another process; try again in a moment', 1));
      else if (message.error) job.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else job.resolve(message.rows ?? []);
      this.pool.next(this);
    });
    this.worker.on('error', (error) => {
      const job = this.job;
      this.finish();
      job?.reject(error);
      if (!this.pool.closed) this.start();
      this.pool.next(this);
    });
    // After the listeners: on Node 20 adding a 'message' listener refs the worker again, and an idle worker then kept
    // a stopping server alive (its close was waiting on a connection; without workers the process just exited).
    this.worker.unref();
  }
  run(job: Job) {
    this.job = job;
    this.timer = setTimeout(() => {
      // A statement cannot be interrupted from outside its thread: the thread goes, and a fresh one takes its place.
      const stuck = this.job;
      this.finish();
      void this.worker.terminate();
      stuck?.reject(tooSlow(this.pool.timeoutMs));
      if (!this.pool.closed) this.start();
      this.pool.next(this);
    }, this.pool.timeoutMs);
    this.worker.postMessage({ id: job.id, sql: job.query.sql, parameters: job.query.parameters });
  }
  finish() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.job = undefined;
  }
}

class ReadPool implements Reads {
  readonly driver = createRequire(import.meta.url).resolve('better-sqlite3');
  closed = false;
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private ids = 0;
  constructor(
    readonly file: string,
    size: number,
    readonly timeoutMs: number,
  ) {
    this.slots = Array.from({ length: size }, () => new Slot(this));
  }
  rows<R>(query: CompiledQuery): Promise<R[]> {
    if (this.closed) return Promise.reject(new UnavailableError('The server is shutting down', 5));
    return new Promise<R[]>((resolve, reject) => {
      const job: Job = { id: ++this.ids, query, resolve: resolve as (rows: unknown[]) => void, reject };
      const idle = this.slots.find((s) => !s.job);
      if (idle) idle.run(job);
      else this.queue.push(job);
    });
  }
  next(slot: Slot) {
    const job = this.queue.shift();
    if (job) slot.run(job);
  }
  async close() {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new UnavailableError('The server is shutting down', 5));
    // A thread that does not stop at once must not keep the server from shutting down.
    const stopped = Promise.all(this.slots.map((s) => s.worker.terminate().catch(() => 0)));
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  }
}

/** Reads of list calls: on worker threads for SQLite, through the pool for PostgreSQL. */
export function createReads(options: ReadPoolOptions): Reads {
  const workers = options.workers ?? DEFAULT_READ_WORKERS;
  if (!options.file || workers <= 0) {
    return {
      rows: async <R>(query: CompiledQuery) => (await options.db.executeQuery<R>(query)).rows,
      close: async () => {},
    };
  }
  return new ReadPool(options.file, workers, options.timeoutMs);
}

/** The reads of a server's configuration: SQLite at DATA_DIR/panel.sqlite (see database.ts) or PostgreSQL. */
export function readsFor(
  config: { databaseUrl?: string; dataDir: string; sqliteReadWorkers?: number; dbStatementTimeoutMs?: number },
  db: Kysely<any>,
): Reads {
  return createReads({
    db,
    file: isPostgresUrl(config.databaseUrl) ? undefined : join(config.dataDir, 'panel.sqlite'),
    workers: config.sqliteReadWorkers,
    timeoutMs: config.dbStatementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
  });
}
