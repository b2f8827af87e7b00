// The IP import's body on a thread of its own (issue 14: no request holds the event loop for long). A million
// entries as JS objects on the event loop's heap meant garbage-collection pauses of a few hundred milliseconds, and
// better-sqlite3's commit of a million rows held the loop 0.25-0.35 s. Here the body's bytes go to a worker thread
// that decodes, parses and checks them; the event loop gets back only the top-level members, the list's length and
// the named problems. The rows then leave the worker as few large values: on SQLite the worker inserts them itself
// with its own connection (the whole write, audit row and commit included, runs there: server/db/large-write.ts),
// elsewhere it hands over each chunk as two array literals for one `unnest` statement.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { IPV4_CIDR } from '../../kernel/rules/ip.ts';
import { MAX_JSON_DEPTH, scanJsonShape } from '../json-shape.ts';
import type { WorkerQueries, WorkerQueryResult } from '../db/large-write.ts';
import { WORKER_NICE } from '../db/read-pool.ts';

/** Vendors an import may name (the form's third one, custom, is not for imports). */
export const IMPORT_VENDORS = ['samsung', 'lg'];
/** Enough named entries for a person to find the bad lines, without a megabyte-long message. */
export const NAMED_PROBLEMS = 20;
/** Rows per INSERT on the worker's own connection (SQLite): one prepared multi-row statement, reused. */
export const WORKER_STATEMENT_ROWS = 1_000;

// CommonJS run with eval and without the parent's flags (as the read pool's workers): no TypeScript loader there.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
// Below the event loop's priority (as the read pool's workers): on a busy machine the loop wins the CPU.
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) require('node:os').setPriority(tid, workerData.nice);
} catch {}
const { bytes, ipPattern, vendors, namedProblems, statementRows, maxJsonDepth } = workerData;
const IP = new RegExp(ipPattern);
const VENDORS = new Set(vendors);
let entries = [];
let db;

/** The problem of one entry, or null when it may be stored. */
function problemOf(entry) {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'must be an object {ip, vendor}';
  const extra = Object.keys(entry).find((key) => key !== 'ip' && key !== 'vendor');
  if (extra !== undefined) return extra + ': is not an accepted field';
  const { ip, vendor } = entry;
  if (typeof ip !== 'string' || !IP.test(ip)) return 'ip ' + JSON.stringify(ip) + ' is not an IPv4 address with an optional /mask of 0-32';
  if (typeof vendor !== 'string' || !VENDORS.has(vendor)) return 'vendor ' + JSON.stringify(vendor) + ' must be samsung or lg';
  return null;
}
const withMask = (ip) => (ip.includes('/') ? ip : ip + '/32');

// The server's own check of nesting and repeated keys (server/json-shape.ts).
${scanJsonShape.toString()}

/** The body as Fastify's parser reads it (onProtoPoisoning and onConstructorPoisoning: 'error'), or what refuses it. */
function parse() {
  // TextDecoder drops a leading byte-order mark, as the default parser does.
  const text = new TextDecoder().decode(bytes);
  const shape = scanJsonShape(text, maxJsonDepth);
  if (shape && shape.deeperThan) return { refused: '['.repeat(shape.deeperThan + 1) + ']'.repeat(shape.deeperThan + 1) };
  if (shape) return { refused: '{' + JSON.stringify(shape.repeated) + ':0,' + JSON.stringify(shape.repeated) + ':0}' };
  let refused;
  const reviver = (key, value) => {
    if (key === '__proto__') refused = '{"__proto__":{}}';
    else if (key === 'constructor' && value && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, 'prototype')) refused = '{"constructor":{"prototype":{}}}';
    return value;
  };
  try {
    const value = /__proto__|constructor|\\\\u/.test(text) ? JSON.parse(text, reviver) : JSON.parse(text);
    return refused ? { refused } : { value };
  } catch {
    return { refused: '{' };
  }
}

/**
 * What the server's input schema needs to word its refusal of a body that is no import: every value as it was down
 * to two levels, below that an empty one of its kind. A hostile body nests thousands of levels deep, which neither
 * the message to the server nor its checks should walk.
 */
function shallow(value, levels) {
  if (Array.isArray(value)) return levels ? value.map((item) => shallow(item, levels - 1)) : [];
  if (value === null || typeof value !== 'object') return value;
  if (!levels) return {};
  const out = {};
  for (const key of Object.keys(value)) out[key] = shallow(value[key], levels - 1);
  return out;
}

function start() {
  const { value, refused } = parse();
  if (refused) return { refused };
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(value.ips)) return { top: shallow(value, 2) };
  entries = value.ips;
  const top = shallow(Object.assign({}, value, { ips: [] }), 2);
  delete top.ips;
  const problems = [];
  let bad = 0;
  for (let index = 0; index < entries.length; index++) {
    const problem = problemOf(entries[index]);
    if (problem === null) continue;
    bad += 1;
    if (problems.length < namedProblems) problems.push('line ' + (index + 1) + ': ' + problem);
  }
  return { top, length: entries.length, bad, problems };
}

/** Every entry as a row on this thread's own connection, in multi-row statements of statementRows rows. */
function insertAll(table, now) {
  const statement = (rows) => {
    const values = Array.from({ length: rows }, () => '(?, ?, ?, ?)').join(', ');
    return db.prepare('insert into "' + table.replace(/"/g, '""') + '" ("ip", "vendor", "createdAt", "updatedAt") values ' + values);
  };
  const full = statement(Math.min(statementRows, entries.length));
  let statements = 0;
  for (let start = 0; start < entries.length; start += statementRows) {
    const slice = entries.slice(start, start + statementRows);
    const parameters = [];
    for (const { ip, vendor } of slice) parameters.push(withMask(ip), vendor, now, now);
    (slice.length === statementRows || start === 0 ? full : statement(slice.length)).run(parameters);
    statements++;
  }
  return { count: entries.length, statements };
}

/** For each address (masked), the 1-based lines of its first two entries in the list. */
function linesOf(ips) {
  const wanted = new Map(ips.map((ip) => [ip, []]));
  for (let index = 0; index < entries.length; index++) {
    const found = wanted.get(withMask(entries[index].ip));
    if (found && found.length < 2) found.push(index + 1);
  }
  return ips.map((ip) => wanted.get(ip));
}

/** One chunk as two PostgreSQL array literals (addresses and vendors hold no character that needs quoting). */
function chunk(start, size) {
  const slice = entries.slice(start, start + size);
  if (!slice.length) return { ips: null, vendors: null };
  return { ips: '{' + slice.map((e) => withMask(e.ip)).join(',') + '}', vendors: '{' + slice.map((e) => e.vendor).join(',') + '}' };
}

/** After a commit: the WAL copied into the database file here, so that no later commit on the event loop does it. */
function checkpoint() {
  let result;
  // Readers still on an older snapshot keep some frames from being copied: try again a few times.
  for (let attempt = 0; attempt < 20; attempt++) {
    result = db.pragma('wal_checkpoint(PASSIVE)')[0];
    if (result.busy === 0 && result.checkpointed === result.log) break;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  return result;
}

try {
  parentPort.postMessage({ id: 0, ...start() });
} catch (error) {
  parentPort.postMessage({ id: 0, error: { message: error.message, code: error.code } });
}
parentPort.on('message', ({ id, kind, sql, parameters, table, now, start, size, file, driver, maxPageCount, ips }) => {
  try {
    if (kind === 'open') {
      const SQLite = require(driver);
      db = new SQLite(file, { fileMustExist: true });
      // The server's own settings (server/db/database.ts); waiting for another process's lock is harmless here.
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 1000');
      db.pragma('wal_autocheckpoint = 0');
      db.pragma('max_page_count = ' + Number(maxPageCount));
      parentPort.postMessage({ id });
    } else if (kind === 'query') {
      const statement = db.prepare(sql);
      if (statement.reader) return parentPort.postMessage({ id, rows: statement.all(parameters) });
      const { changes, lastInsertRowid } = statement.run(parameters);
      parentPort.postMessage({ id, rows: [], changes, lastInsertRowid: Number(lastInsertRowid) });
    } else if (kind === 'insert') {
      parentPort.postMessage({ id, ...insertAll(table, now) });
    } else if (kind === 'lines') {
      parentPort.postMessage({ id, lines: linesOf(ips) });
    } else if (kind === 'chunk') {
      parentPort.postMessage({ id, ...chunk(start, size) });
    } else if (kind === 'close') {
      entries = [];
      if (db && !db.inTransaction) checkpoint();
      db?.close();
      db = undefined;
      parentPort.postMessage({ id });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});
`;

/** What the worker found in the body: a refusal (text the default JSON parser refuses the same way), or the input. */
export interface ParsedBody {
  /** A JSON text that the server's JSON parser refuses with the words this body deserves (bad JSON, a poisoned key, too deep, a repeated key). */
  refused?: string;
  /** The body's value without its `ips` list when that is an array (the whole value otherwise). */
  top?: unknown;
  /** The number of entries in `ips`, when it is an array. */
  length?: number;
  /** Bad entries, and the first NAMED_PROBLEMS of them as "line N: ...". */
  bad?: number;
  problems?: string[];
}

interface Reply {
  id: number;
  error?: { message: string; code?: string };
  [key: string]: unknown;
}

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/** One IP import's worker thread: it holds the parsed entries until the import is stored or refused. */
export class ImportWorker implements WorkerQueries {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(reply: Reply): void; reject(error: Error): void }>();
  private ids = 0;
  private ended = false;
  /** Whether the worker has its own connection (open), on which the rows are then inserted. */
  hasConnection = false;
  /** The body's top-level value and the entries' problems, once the worker has read them. */
  readonly parsed: Promise<ParsedBody>;

  /** Starts a worker on the body's bytes (handed over, not copied). */
  constructor(bytes: Uint8Array) {
    // A buffer of its own is handed over; a view into a larger one (Node's pool) is copied first.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
    this.worker = new Worker(WORKER, {
      eval: true,
      execArgv: [],
      workerData: {
        nice: WORKER_NICE, bytes: own, ipPattern: IPV4_CIDR.source, vendors: IMPORT_VENDORS, namedProblems: NAMED_PROBLEMS, statementRows: WORKER_STATEMENT_ROWS, maxJsonDepth: MAX_JSON_DEPTH,
      },
      transferList: [own.buffer as ArrayBuffer],
    });
    this.parsed = this.ask(0) as Promise<ParsedBody>;
    this.worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (!this.waiting.size) this.worker.unref();
      if (reply.error) waiter.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      else waiter.resolve(reply);
    });
    const fail = (error: Error) => {
      this.ended = true;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
      this.worker.unref();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the IP import's worker stopped (exit code ${code})`)));
    // After the listeners: a 'message' listener refs the worker again, and a stopping server must not wait for an idle
    // worker; while an answer is awaited (ask), the worker is ref'd, or a process serving no socket (`npm run demo`,
    // which calls the routes in-process) exited mid-import with its await unsettled (exit code 13).
    if (!this.waiting.size) this.worker.unref();
    this.parsed.catch(() => {});
  }

  private ask(id: number, message?: Record<string, unknown>): Promise<Reply> {
    if (this.ended) return Promise.reject(new Error("the IP import's worker has stopped"));
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      if (message) this.worker.postMessage({ id, ...message });
    });
  }

  private send(message: Record<string, unknown>): Promise<Reply> {
    return this.ask(++this.ids, message);
  }

  /** Opens the worker's own connection to the SQLite file (for WorkerQueries). */
  async open(file: string, maxPageCount: number): Promise<void> {
    await this.send({ kind: 'open', file, driver, maxPageCount });
    this.hasConnection = true;
  }

  async query(sql: string, parameters: readonly unknown[]): Promise<WorkerQueryResult> {
    const reply = await this.send({ kind: 'query', sql, parameters });
    return reply as unknown as WorkerQueryResult;
  }

  /** Inserts every entry into `table` on the worker's own connection, in its open transaction; answers the statements. */
  async insertAll(table: string, now: string): Promise<number> {
    return (await this.send({ kind: 'insert', table, now })).statements as number;
  }

  /** For each address as stored (with its mask), the lines (1-based) of its first two entries in the list. */
  async linesOf(ips: string[]): Promise<number[][]> {
    return (await this.send({ kind: 'lines', ips })).lines as number[][];
  }

  /** The entries from `start`, at most `size`, as PostgreSQL array literals of addresses (masked) and vendors. */
  async chunk(start: number, size: number): Promise<{ ips: string; vendors: string } | null> {
    const reply = await this.send({ kind: 'chunk', start, size });
    return reply.ips === null ? null : { ips: reply.ips as string, vendors: reply.vendors as string };
  }

  /** Checkpoints and closes the worker's connection (if any), then ends the thread; never throws. */
  async close(): Promise<void> {
    if (this.ended) return;
    await this.send({ kind: 'close' }).catch(() => {});
    this.ended = true;
    await this.worker.terminate().catch(() => 0);
  }
}
