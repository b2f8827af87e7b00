// Opens the database: SQLite by default, PostgreSQL for a postgres:// URL. Every dialect difference the rest
// of the server needs is a field of Capabilities, so no other file branches on the dialect's name.
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { UnavailableError } from '../errors.ts';
import { DatabaseHealth, guardDialect } from './guard.ts';
import { sqliteFile } from './large-write.ts';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

export type { Capabilities, ColumnKind, Outage } from './capabilities.ts';
import type { Capabilities, Outage } from './capabilities.ts';

export interface Database {
  db: Kysely<any>;
  caps: Capabilities;
  health: DatabaseHealth;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL: how long opening a connection may take before the request gets a 503. */
  dbConnectTimeoutMs?: number;
  /** PostgreSQL: how long one statement may run (and the network may stay silent) before a 503. */
  dbStatementTimeoutMs?: number;
  /** Where outages are reported (once when one starts, once when it ends). */
  log?: (line: string) => void;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
/** SQLite: how long a write waits, without blocking the event loop, for a lock another process holds. */
export const SQLITE_BUSY_WAIT_MS = 1_000;

const UNREACHABLE: Outage = { kind: 'unreachable', message: 'The database is unreachable; try again in a few seconds', retryAfterSeconds: 5 };
const TOO_SLOW: Outage = { kind: 'unreachable', message: 'The database did not answer in time; try again in a few seconds', retryAfterSeconds: 5 };
const BUSY: Outage = { kind: 'busy', message: 'The database is locked by another process; try again in a moment', retryAfterSeconds: 1 };
const UNREADABLE: Outage = { kind: 'unreachable', message: 'The database file cannot be opened or read; try again in a few seconds', retryAfterSeconds: 5 };
const FULL: Outage = { kind: 'full', message: "The database's disk is full; nothing can be saved until space is freed", retryAfterSeconds: 60 };

const code = (error: unknown) => (error as { code?: string } | null)?.code ?? '';
const message = (error: unknown) => (error instanceof Error ? error.message : '');
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
// What node-postgres and Kysely say when a connection dies, times out or was closed because it did.
const LOST_CONNECTION = /^(Connection terminated|timeout exceeded when trying to connect|Client (was closed|has encountered a connection error)|Postgres connection has been discarded)/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// better-sqlite3 runs one connection; BEGIN IMMEDIATE takes the write lock up front so two processes on
// one file never fail with SQLITE_BUSY at commit. SQLite's own busy_timeout would wait inside a synchronous
// call, freezing the whole server, so it is 0 and a statement refused for a lock another process holds is
// retried here between timers instead (outside a transaction only: inside one, the lock is already ours).
class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
    private readonly file?: SameFile,
  ) {
    super(config);
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    const sqlite = this.sqlite;
    return {
      async executeQuery(query) {
        const deadline = Date.now() + SQLITE_BUSY_WAIT_MS;
        for (let pause = 10; ; pause = Math.min(pause * 2, 100)) {
          try {
            return await connection.executeQuery(query);
          } catch (error) {
            if (!code(error).startsWith('SQLITE_BUSY') || sqlite.inTransaction || Date.now() + pause > deadline) throw error;
            await sleep(pause);
          }
        }
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.file?.refuseIfReplaced(); // found replaced since the transaction began: it rolls back instead
    await super.commitTransaction(connection);
  }
}

/** How often the server looks whether its SQLite file is still the one under DATA_DIR, besides each write's start. */
export const SAME_FILE_CHECK_MS = 1_000;

/**
 * Whether the SQLite file the server opened is still the one at its path: a file replaced (a restore beside the
 * server) or deleted keeps the server's descriptor on the old inode, and every write acknowledged there would be
 * lost at the next start. Checked every SAME_FILE_CHECK_MS and with one stat at the start of each write (a write
 * transaction's BEGIN IMMEDIATE, a write outside one), so a query costs no stat; once replaced, writes get a 503.
 */
class SameFile {
  private readonly dev: number;
  private readonly ino: number;
  private replaced: string | undefined;
  private readonly timer: NodeJS.Timeout;
  constructor(
    private readonly path: string,
    private readonly log: (line: string) => void,
  ) {
    ({ dev: this.dev, ino: this.ino } = statSync(path));
    this.timer = setInterval(() => this.check(), SAME_FILE_CHECK_MS).unref();
  }
  /** Stats the path once; the first time it is another file (or none), logs it loudly. */
  check(): void {
    if (this.replaced) return;
    const now = statSync(this.path, { throwIfNoEntry: false });
    if (now && now.dev === this.dev && now.ino === this.ino) return;
    this.replaced = now ? `${this.path} was replaced by another file` : `${this.path} was deleted`;
    this.log(
      `DATABASE FILE GONE: ${this.replaced} while this server had it open (a restore run beside it?). ` +
        'Every write is refused with 503 from now on; restart the server to open the file now there.',
    );
  }
  /** Throws the 503 once the file was found replaced (no stat). */
  refuseIfReplaced(): void {
    if (this.replaced) throw new UnavailableError(`The database file was replaced under this server (${this.replaced}); it must be restarted`, 30);
  }
  /** Before a write: stats the path when no transaction is open (a transaction already checked at its BEGIN). */
  beforeWrite(inTransaction: boolean): void {
    if (!inTransaction) this.check();
    this.refuseIfReplaced();
  }
  stop(): void {
    clearInterval(this.timer);
  }
}
/** Prepared statements kept per connection; past this many different statements the cache starts again. */
const KEPT_STATEMENTS = 500;

/**
 * The connection as Kysely sees it, with each statement prepared once: Kysely's driver prepares every query anew, and
 * preparing costs ~8x running a small one (27 us against 3.4 us for the session lookup every API call makes). A
 * statement still iterating (a streamed export) is busy: the same SQL meanwhile gets a fresh statement.
 */
export function keptStatements(sqlite: SQLite.Database, file?: SameFile): SqliteDialectConfig['database'] {
  const kept = new Map<string, SQLite.Statement>();
  const checked = (statement: SQLite.Statement) => {
    // BEGIN IMMEDIATE is a write statement too (readonly false), so a transaction is checked as it begins.
    if (file && !statement.readonly) file.beforeWrite(sqlite.inTransaction);
    return statement;
  };
  return {
    close: () => {
      file?.stop();
      sqlite.close();
    },
    prepare(text: string) {
      const statement = kept.get(text);
      if (statement && !statement.busy) return checked(statement);
      const fresh = sqlite.prepare(text);
      if (!statement) {
        if (kept.size >= KEPT_STATEMENTS) kept.clear();
        kept.set(text, fresh);
      }
      return checked(fresh);
    },
  };
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #sqlite: SQLite.Database;
  readonly #file: SameFile;
  constructor(sqlite: SQLite.Database, file: SameFile) {
    const config = { database: keptStatements(sqlite, file) };
    super(config);
    this.#config = config;
    this.#sqlite = sqlite;
    this.#file = file;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#sqlite, this.#file);
  }
}

const sqliteCaps: Capabilities = {
  name: 'sqlite',
  columnType: (kind) => ({ integer: 'integer', number: 'real', string: 'text', boolean: 'integer', json: 'text', timestamp: 'text' })[kind],
  idType: 'integer',
  autoIncrementKey: true,
  advisoryLocks: false,
  textSearch: 'fts-table',
  concurrentIndexBuild: false,
  toDbBoolean: (value) => (value ? 1 : 0),
  likeInsensitive: 'like',
  nullsSortHigh: false,
  timestampsAsDates: false,
  writesOnEventLoop: true,
  isUniqueViolation: (e) => code(e) === 'SQLITE_CONSTRAINT_UNIQUE' || code(e) === 'SQLITE_CONSTRAINT_PRIMARYKEY',
  // ON DELETE RESTRICT reports SQLITE_CONSTRAINT_TRIGGER, an insert SQLITE_CONSTRAINT_FOREIGNKEY.
  isForeignKeyViolation: (e) =>
    code(e) === 'SQLITE_CONSTRAINT_FOREIGNKEY' || (code(e).startsWith('SQLITE_CONSTRAINT') && /FOREIGN KEY/.test(String((e as Error).message))),
  lockKey: async () => {},
  lockRows: (query) => query,
  maxParameters: 32_766,
  workerWriteFile: sqliteFile,
  dataVersion: async (db) => Number((await sql<{ data_version: number }>`pragma data_version`.execute(db)).rows[0].data_version),
  // CANTOPEN, IOERR and READONLY: the file, its directory or its disk went away or became read-only under the server.
  outage: (e) => {
    const c = code(e);
    if (c.startsWith('SQLITE_BUSY')) return BUSY;
    if (c === 'SQLITE_FULL') return FULL;
    if (/^SQLITE_(CANTOPEN|IOERR|READONLY)/.test(c)) return UNREADABLE;
    return undefined;
  },
  isBadValue: (e) => code(e) === 'SQLITE_TOOBIG' || code(e) === 'SQLITE_MISMATCH',
};

const postgresCaps: Capabilities = {
  name: 'postgres',
  columnType: (kind) =>
    ({ integer: 'bigint', number: 'double precision', string: 'text', boolean: 'boolean', json: 'text', timestamp: 'timestamptz' })[kind],
  idType: 'serial',
  autoIncrementKey: false,
  advisoryLocks: true,
  textSearch: 'trigram-index',
  concurrentIndexBuild: true,
  toDbBoolean: (value) => value,
  likeInsensitive: 'ilike',
  nullsSortHigh: true,
  timestampsAsDates: true,
  writesOnEventLoop: false,
  isUniqueViolation: (e) => code(e) === '23505',
  isForeignKeyViolation: (e) => code(e) === '23503',
  lockKey: async (trx, key) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  },
  lockRows: (query, table) => query.forNoKeyUpdate(table) as typeof query,
  maxParameters: 65_535,
  workerWriteFile: async () => undefined,
  dataVersion: async () => null,
  // SQLSTATE: 08 connection exceptions; 57P01-03 server shutting down or starting; 53300 too many connections;
  // 53100 disk full; 57014 statement timeout; 40001/40P01 serialization failure and deadlock, worth a retry.
  outage: (e) => {
    const c = code(e);
    if (c === '53100') return FULL;
    if (c === '57014' || message(e) === 'Query read timeout') return TOO_SLOW;
    if (c === '40001' || c === '40P01' || c === '55P03') return BUSY;
    if (c.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(c) || NETWORK_CODES.has(c) || LOST_CONNECTION.test(message(e))) {
      return UNREACHABLE;
    }
    return undefined;
  },
  // Class 22, data exceptions: a number beyond the column's range, text the encoding refuses, a bad literal.
  isBadValue: (e) => code(e).startsWith('22'),
};

export const isPostgresUrl = (url?: string) => !!url && /^postgres(ql)?:\/\//.test(url);

/**
 * A pool that survives PostgreSQL going away: a connection that dies (idle or in use) is reported, not thrown
 * at the process; connecting and each statement have a time limit; a connection whose answer never came is
 * closed, so the pool opens a fresh one instead of queueing the next request behind it.
 */
function resilientPool(options: DatabaseOptions, health: DatabaseHealth): pg.Pool {
  const statementMs = options.dbStatementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: 10,
    application_name: 'wl-admin-panel',
    connectionTimeoutMillis: options.dbConnectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // The server cancels a statement that runs too long; the client gives up a little later, for when the
    // network itself is silent and no cancellation can arrive.
    statement_timeout: statementMs,
    query_timeout: statementMs + 1_000,
    keepAlive: true,
  });
  const lost = (error: Error) => health.down(postgresCaps.outage(error) ?? UNREACHABLE, error);
  pool.on('error', lost);
  pool.on('connect', (client) => {
    client.on('error', lost);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const pending = query(...args) as Promise<unknown> | undefined;
      pending?.catch?.((error: unknown) => {
        if (message(error) === 'Query read timeout') void client.end().catch(() => {});
      });
      return pending;
    };
  });
  return pool;
}

export function openDatabase(options: DatabaseOptions): Database {
  const health = new DatabaseHealth(options.log ?? ((line) => console.error(line)));
  if (isPostgresUrl(options.databaseUrl)) {
    // bigint (int8) comes back as a string by default; our integers fit in a double.
    pg.types.setTypeParser(20, (value) => Number(value));
    const pool = resilientPool(options, health);
    const db = new Kysely<any>({ dialect: guardDialect(new PostgresDialect({ pool }), postgresCaps, health) });
    return { db, caps: postgresCaps, health, close: () => db.destroy() };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, 'panel.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on the disk before the write is acknowledged, power loss included; `npm run bench
  // durability` measured no difference from NORMAL worth losing that for (README, Security and operations).
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 0');
  const sameFile = new SameFile(file, options.log ?? ((line) => console.error(line)));
  // The IP import's worker opens the file by its path: not once that path is another file.
  const caps: Capabilities = {
    ...sqliteCaps,
    workerWriteFile: async (db) => {
      sameFile.beforeWrite(false);
      return sqliteCaps.workerWriteFile(db);
    },
  };
  const db = new Kysely<any>({ dialect: guardDialect(new ImmediateSqliteDialect(sqlite, sameFile), caps, health) });
  return { db, caps, health, close: () => db.destroy() };
}
