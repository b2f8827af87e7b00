// List reads that cannot stall the server (issue 14). better-sqlite3 runs every statement synchronously on the
// thread that calls it, so one slow list query froze the whole server (/healthz, the device lookup). On SQLite the
// list's row and count queries run instead on worker threads, each with its own read-only connection to the same
// file (WAL: readers see every committed write and never block the writer), at a lower scheduling priority than the
// event loop. On PostgreSQL they go to the pool, at most a few at once per process. On both, every read has a time
// limit that counts from the moment it was asked for, waiting included: a read still waiting past it, or a worker
// still busy past it (terminated, which interrupts SQLite mid-statement, and replaced), answers a 503 that says so.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery, Kysely } from 'kysely';
import { join } from 'node:path';
import { UnavailableError } from '../errors.ts';
import { DEFAULT_STATEMENT_TIMEOUT_MS, isPostgresUrl, type Database } from './database.ts';
import { guardError } from './guard.ts';

export interface Reads {
  /** Rows of a compiled SELECT. */
  rows<R = Record<string, unknown>>(query: CompiledQuery): Promise<R[]>;
  close(): Promise<void>;
}

/**
 * How long a list read waits before it starts while the event loop is busy (LIST_YIELD_MS; 0 = never). Device calls
 * and /healthz are answered from memory on the event loop; two staff clients looping a list flat out took half of
 * it on PostgreSQL (each call a round trip, the next sent as soon as the answer came). Waiting a moment when the
 * loop is busy slows such loops, not the devices, and costs a person looking at a list nothing they could see.
 */
export const DEFAULT_LIST_YIELD_MS = 2;
/**
 * How long a list read waits instead while the event loop also serves other calls and is busy more than
 * SHARED_BUSY_SHARE (LIST_YIELD_SHARED_MS): the devices' lookups, /healthz, logins and writes come first. On a
 * machine whose cores are all taken (2 cores: the server, its list reads and the callers) the loop itself is not
 * saturated, yet every list read's CPU is taken from the other calls: two clients looping a list flat out left
 * /healthz and the lookup 0.57-0.74 of their idle throughput with 2 ms yields on a loop over 70 % busy; waiting
 * 20 ms once the loop is 30 % busy with other calls kept them at 0.73-1.09 (`npm run bench -- lists --cases busy
 * --rows 1000000`, both dialects), the two list loops then reading ~90 pages a second between them. A person
 * reading a list meanwhile waits 20 ms longer for each page; lists alone (no other call in the window) wait
 * DEFAULT_LIST_YIELD_MS only, so a list's own throughput is not cut when nothing else asks for the process.
 */
export const DEFAULT_LIST_YIELD_SHARED_MS = 20;
/** The event loop counts as busy while it was busy more than this share of the last BUSY_WINDOW_MS. */
const BUSY_SHARE = 0.7;
/** The share past which the loop counts as busy when it also serves other calls (see loopShared). */
const SHARED_BUSY_SHARE = 0.3;
const BUSY_WINDOW_MS = 50;

let loopBusy = false;
/** The busy loop also served calls other than list calls in the last window. */
let loopShared = false;
let watching = 0;
let watcher: NodeJS.Timeout | undefined;
let calls = 0;
let listCalls = 0;

/** Every call the server receives counts here (an onRequest hook), list calls also in `noteListCall`. */
export function noteCall(): void {
  calls++;
}
export function noteListCall(): void {
  listCalls++;
}

/** Samples the event loop's utilisation, and which calls it served, while at least one pool is open. */
function watchLoop(): () => void {
  if (watching++ === 0) {
    let last = performance.eventLoopUtilization();
    let [lastCalls, lastListCalls] = [calls, listCalls];
    watcher = setInterval(() => {
      const now = performance.eventLoopUtilization();
      const utilization = performance.eventLoopUtilization(now, last).utilization;
      loopBusy = utilization > BUSY_SHARE;
      loopShared = utilization > SHARED_BUSY_SHARE && calls - lastCalls > listCalls - lastListCalls;
      last = now;
      [lastCalls, lastListCalls] = [calls, listCalls];
    }, BUSY_WINDOW_MS).unref();
  }
  return () => {
    if (--watching === 0) {
      clearInterval(watcher);
      loopBusy = loopShared = false;
    }
  };
}

export interface ReadPoolOptions {
  /** The SQLite file; undefined = read through `db` itself (PostgreSQL). */
  file?: string;
  db: Kysely<any>;
  /** SQLite: worker threads (SQLITE_READ_WORKERS; 0 = read on the event loop). Default: DEFAULT_READ_WORKERS. */
  workers?: number;
  /** PostgreSQL: list reads run at once by this process (LIST_READS_AT_ONCE); the rest wait. Default: DEFAULT_READS_AT_ONCE. */
  atOnce?: number;
  /** How long one read may take, waiting included, before it is answered with a 503 (DB_STATEMENT_TIMEOUT_MS, default 15 s). */
  timeoutMs: number;
  /** SQLite: the workers' nice value on Linux (the event loop's is the process's, usually 0); default WORKER_NICE. */
  nice?: number;
  /** How long a read waits before it starts while the event loop is busy; default DEFAULT_LIST_YIELD_MS. */
  yieldMs?: number;
  /** The same while the busy loop also serves other calls; default DEFAULT_LIST_YIELD_SHARED_MS. */
  sharedYieldMs?: number;
  /**
   * SQLite: what a failed read is answered with, by default its error: the database's guard (server/db/guard.ts), so
   * that a file that cannot be opened or read is a 503 as on the server's own connection, not a 500.
   */
  failure?: (error: unknown) => unknown;
}

/**
 * List reads at once, per process: two. A list read keeps a core busy while it runs (a SQLite worker, a PostgreSQL
 * backend), and the event loop, which answers every other call (/healthz, the device lookup, logins, writes), needs
 * one too; the SQLite workers run at nice 10 and every read yields while the event loop is busy (LIST_YIELD_MS), so
 * the event loop keeps its core. When list reads were slow (a relation sort joined every row; `npm run bench --
 * read-workers --heavy relation`, 200,000 rows) one worker at nice 10 kept /healthz and the lookup at 0.96 / 0.95
 * of idle while two at normal priority left 0.29 / 0.35. With every list case on an index (a page in well under a
 * millisecond at a million rows), one read at a time left the database idle while the event loop worked, and the
 * other way round. At a million rows on 2 cores, the same run, reads at once 1 against 2 (with the yield):
 * SQLite page 1 2,213 / 2,911 req/s, contains 1,344 / 1,863, the lookup while two clients loop the heavy list 0.65 /
 * 0.72 of idle; PostgreSQL page 1 1,617 / 1,737, contains 567 / 1,052, equality 924 / 1,389, the lookup 0.51 / 0.86
 * (medians of three interleaved rounds; `npm run bench -- lists` measures the same cases). The other list reads wait
 * their turn (their time limit counting). SQLITE_READ_WORKERS and LIST_READS_AT_ONCE set it; SQLITE_READ_WORKERS=0
 * reads on the event loop as before.
 */
export const DEFAULT_READ_WORKERS = 2;
/** PostgreSQL: list reads one process runs at once (the rest wait); see DEFAULT_READ_WORKERS. */
export const DEFAULT_READS_AT_ONCE = DEFAULT_READ_WORKERS;
/** Linux nice of the read workers: the event loop's thread wins the CPU when both want it. */
export const WORKER_NICE = 10;

const duration = (ms: number) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);

export const tooSlow = (timeoutMs: number) =>
  new UnavailableError(`The list query took longer than ${duration(timeoutMs)} and was stopped; narrow the filters or try again`, 5);

/**
 * PostgreSQL's answer to a read past its time limit: from here a slow query and a database that went silent look the
 * same (no answer yet), and the session behind the call no longer needs a query of its own that would have told.
 */
export const noAnswer = (timeoutMs: number) =>
  new UnavailableError(`The database did not answer in time: the list query was stopped after ${duration(timeoutMs)}; narrow the filters or try again`, 5);

const shuttingDown = () => new UnavailableError('The server is shutting down', 5);

// CommonJS, run with eval and without the parent's flags: no TypeScript loader (tsx's --import) runs in the worker.
// On Linux a thread has its own nice value: /proc/thread-self names this thread's id, which setPriority accepts.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0 && workerData.nice) require('node:os').setPriority(tid, workerData.nice);
} catch {}
const SQLite = require(workerData.driver);
// Opened at the first read, and again at the next one after the file could not be opened: a worker that threw at its
// start was replaced at once, in a loop while the file stayed away.
let db;
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    if (!db) {
      db = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
      db.pragma('busy_timeout = 1000');
    }
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
  /** When the read's time limit ends (Date.now() based). */
  deadline: number;
  /** Set while it waits for a free slot. */
  waiting?: NodeJS.Timeout;
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

/** At most `size` reads at once; the others wait in order, each answered with a 503 if its time limit ends first. */
abstract class Gate implements Reads {
  closed = false;
  private readonly queue: Job[] = [];
  private ids = 0;
  private readonly unwatch: () => void;
  constructor(
    readonly timeoutMs: number,
    /** What a read past its time limit answers. */
    protected readonly late: (timeoutMs: number) => UnavailableError = tooSlow,
    private readonly yieldMs = DEFAULT_LIST_YIELD_MS,
    private readonly sharedYieldMs = DEFAULT_LIST_YIELD_SHARED_MS,
  ) {
    this.unwatch = yieldMs > 0 || sharedYieldMs > 0 ? watchLoop() : () => {};
  }
  /** Starts the job on a free slot; false when every slot is busy. */
  protected abstract start(job: Job): boolean;
  protected abstract stop(): Promise<void>;
  async rows<R>(query: CompiledQuery): Promise<R[]> {
    // The time limit counts from here, the yield included.
    const deadline = Date.now() + this.timeoutMs;
    const wait = loopShared && this.sharedYieldMs > 0 ? Math.max(this.sharedYieldMs, this.yieldMs) : loopBusy ? this.yieldMs : 0;
    if (wait > 0 && !this.closed) await new Promise((resolve) => setTimeout(resolve, wait));
    if (this.closed) throw shuttingDown();
    return new Promise<R[]>((resolve, reject) => {
      const job: Job = { id: ++this.ids, query, deadline, resolve: resolve as (rows: unknown[]) => void, reject };
      if (this.start(job)) return;
      job.waiting = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(job), 1);
        reject(this.late(this.timeoutMs));
      }, Math.max(0, deadline - Date.now()));
      this.queue.push(job);
    });
  }
  /** A slot is free again: the next waiting read takes it. */
  protected freed(): void {
    const job = this.queue.shift();
    if (!job) return;
    clearTimeout(job.waiting);
    if (!this.start(job)) this.queue.unshift(job);
  }
  async close() {
    if (!this.closed) this.unwatch();
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      clearTimeout(job.waiting);
      job.reject(shuttingDown());
    }
    await this.stop();
  }
}

class Slot {
  worker!: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
  constructor(private readonly pool: WorkerPool) {
    this.start();
  }
  start() {
    const { file, driver, nice } = this.pool;
    this.worker = new Worker(WORKER, { eval: true, execArgv: [], workerData: { file, driver, nice } });
    this.worker.on('message', (message: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const job = this.job;
      if (!job || job.id !== message.id) return;
      this.finish();
      if (message.error?.code?.startsWith('SQLITE_BUSY')) job.reject(new UnavailableError('The database is locked by another process; try again in a moment', 1));
      else if (message.error) job.reject(this.pool.failure(Object.assign(new Error(message.error.message), { code: message.error.code })));
      else job.resolve(message.rows ?? []);
      this.pool.idle();
    });
    this.worker.on('error', (error) => {
      const job = this.job;
      this.finish();
      job?.reject(this.pool.failure(error));
      if (!this.pool.closed) this.start();
      this.pool.idle();
    });
    // After the listeners: on Node 20 adding a 'message' listener refs the worker again, and an idle worker then kept
    // a stopping server alive (its close was waiting on a connection; without workers the process just exited).
    this.worker.unref();
  }
  run(job: Job) {
    this.job = job;
    this.timer = setTimeout(
      () => {
        // A statement cannot be interrupted from outside its thread: the thread goes, and a fresh one takes its place.
        const stuck = this.job;
        this.finish();
        void this.worker.terminate();
        stuck?.reject(tooSlow(this.pool.timeoutMs));
        if (!this.pool.closed) this.start();
        this.pool.idle();
      },
      Math.max(0, job.deadline - Date.now()),
    );
    this.worker.postMessage({ id: job.id, sql: job.query.sql, parameters: job.query.parameters });
  }
  finish() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.job = undefined;
  }
}

/** SQLite: list reads on worker threads, one read per worker at a time. */
class WorkerPool extends Gate {
  readonly driver = createRequire(import.meta.url).resolve('better-sqlite3');
  private readonly slots: Slot[];
  constructor(
    readonly file: string,
    size: number,
    timeoutMs: number,
    readonly nice: number,
    yieldMs?: number,
    sharedYieldMs?: number,
    readonly failure: (error: unknown) => unknown = (error) => error,
  ) {
    super(timeoutMs, tooSlow, yieldMs, sharedYieldMs);
    this.slots = Array.from({ length: size }, () => new Slot(this));
  }
  protected start(job: Job): boolean {
    const free = this.slots.find((s) => !s.job);
    free?.run(job);
    return !!free;
  }
  idle() {
    this.freed();
  }
  protected async stop() {
    // A thread that does not stop at once must not keep the server from shutting down.
    const stopped = Promise.all(this.slots.map((s) => s.worker.terminate().catch(() => 0)));
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  }
}

/**
 * PostgreSQL: list reads through the server's pool, `size` at once. A read whose time limit ends while its
 * statement still runs is answered at once; its slot stays taken until the statement ends (statement_timeout).
 */
class PoolGate extends Gate {
  private running = 0;
  constructor(
    private readonly db: Kysely<any>,
    private readonly size: number,
    timeoutMs: number,
    yieldMs?: number,
    sharedYieldMs?: number,
  ) {
    super(timeoutMs, noAnswer, yieldMs, sharedYieldMs);
  }
  protected start(job: Job): boolean {
    if (this.running >= this.size) return false;
    this.running++;
    let settled = false;
    const late = setTimeout(() => {
      settled = true;
      job.reject(this.late(this.timeoutMs));
    }, Math.max(0, job.deadline - Date.now()));
    this.db.executeQuery(job.query).then(
      (result) => {
        if (!settled) job.resolve(result.rows);
      },
      (error: unknown) => {
        if (!settled) job.reject(error);
      },
    ).finally(() => {
      settled = true;
      clearTimeout(late);
      this.running--;
      this.freed();
    });
    return true;
  }
  protected async stop() {}
}

/** Reads of list calls: on worker threads for SQLite, through the pool for PostgreSQL. */
export function createReads(options: ReadPoolOptions): Reads {
  if (!options.file) {
    const atOnce = options.atOnce ?? DEFAULT_READS_AT_ONCE;
    return new PoolGate(options.db, Math.max(1, atOnce), options.timeoutMs, options.yieldMs, options.sharedYieldMs);
  }
  const workers = options.workers ?? DEFAULT_READ_WORKERS;
  if (workers <= 0) {
    return {
      rows: async <R>(query: CompiledQuery) => (await options.db.executeQuery<R>(query)).rows,
      close: async () => {},
    };
  }
  return new WorkerPool(options.file, workers, options.timeoutMs, options.nice ?? WORKER_NICE, options.yieldMs, options.sharedYieldMs, options.failure);
}

/** The reads of a server's configuration: SQLite at DATA_DIR/panel.sqlite (see database.ts) or PostgreSQL. */
export function readsFor(
  config: { databaseUrl?: string; dataDir: string; sqliteReadWorkers?: number; listReadsAtOnce?: number; listYieldMs?: number; listYieldSharedMs?: number; dbStatementTimeoutMs?: number },
  database: Pick<Database, 'db' | 'caps' | 'health'>,
): Reads {
  return createReads({
    db: database.db,
    failure: (error) => guardError(database.caps, database.health, error),
    file: isPostgresUrl(config.databaseUrl) ? undefined : join(config.dataDir, 'panel.sqlite'),
    workers: config.sqliteReadWorkers,
    atOnce: config.listReadsAtOnce,
    yieldMs: config.listYieldMs,
    sharedYieldMs: config.listYieldSharedMs,
    timeoutMs: config.dbStatementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
  });
}
