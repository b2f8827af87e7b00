// What the server needs of a database dialect (server/db/database.ts implements it for SQLite and PostgreSQL),
// in a file of its own so that the outage guard can name it without importing the database module.
import type { Kysely, SelectQueryBuilder } from 'kysely';

import type { ColumnKind } from '../model/model.ts';

export type { ColumnKind };

export interface Capabilities {
  name: 'sqlite' | 'postgres';
  /** SQL type of a column kind. */
  columnType(kind: ColumnKind): string;
  /** SQL type of the autoincrement primary key. */
  idType: string;
  /** The primary key must be declared AUTOINCREMENT so ids are never reused (SQLite); PostgreSQL's serial never reuses. */
  autoIncrementKey: boolean;
  /**
   * Other processes share the database through its server, so start-up and long jobs take its advisory locks
   * (PostgreSQL); SQLite's BEGIN IMMEDIATE already serializes the writers of its one file.
   */
  advisoryLocks: boolean;
  /** What serves `contains` filters: trigram indexes on lower(field) (PostgreSQL pg_trgm) or an FTS5 trigram table (SQLite). */
  textSearch: 'trigram-index' | 'fts-table';
  /** Indexes can be built beside the running server (CREATE INDEX CONCURRENTLY, on a connection of its own). */
  concurrentIndexBuild: boolean;
  /** Booleans are stored natively or as 0/1. */
  toDbBoolean(value: boolean): unknown;
  /** Case-insensitive LIKE operator. */
  likeInsensitive: 'like' | 'ilike';
  /** NULL sorts above every value (PostgreSQL) or below (SQLite): where a keyset walk meets the NULL rows. */
  nullsSortHigh: boolean;
  /** The driver reads a timestamp as a Date (PostgreSQL), which would lose its zone in a cursor; SQLite keeps the stored text. */
  timestampsAsDates: boolean;
  /**
   * A commit runs on the event loop (SQLite's synchronous driver): device writes are batched and paced so they take
   * a share of it. PostgreSQL's commits wait on the database server instead.
   */
  writesOnEventLoop: boolean;
  isUniqueViolation(error: unknown): boolean;
  isForeignKeyViolation(error: unknown): boolean;
  /**
   * Serializes transactions on a key until the caller's transaction ends (the device lookup's collection
   * write, the device reports' upserts). SQLite needs nothing: BEGIN IMMEDIATE already holds the write lock.
   */
  lockKey(trx: Kysely<any>, key: string): Promise<void>;
  /**
   * Locks the rows of `table` (its name or alias in the query) that a SELECT reads until the caller's transaction
   * ends, so that what a write checks on them (a version) is still true when it writes: a concurrent write waits
   * and then reads the committed row. PostgreSQL: FOR NO KEY UPDATE OF (the lock an UPDATE takes, so inserts of
   * rows that reference it do not wait); SQLite: the query as it is, since BEGIN IMMEDIATE already holds the
   * database's write lock for the whole transaction.
   */
  lockRows<Q extends SelectQueryBuilder<any, any, any>>(query: Q, table: string): Q;
  /**
   * A number that changes when another connection commits (SQLite's PRAGMA data_version), for caches that
   * must notice other processes' writes; null where the database has none (PostgreSQL, which has NOTIFY).
   */
  dataVersion(db: Kysely<any>): Promise<number | null>;
  /**
   * The database file a worker thread's own connection writes a very large transaction to (the IP import), so that
   * its statements and commit hold no event loop (SQLite: server/db/large-write.ts); undefined where the server's
   * own connection serves as well (PostgreSQL runs and commits it on its own server; an in-memory SQLite).
   */
  workerWriteFile(db: Kysely<any>): Promise<string | undefined>;
  /** The most bind parameters one statement may carry (SQLite's SQLITE_MAX_VARIABLE_NUMBER, PostgreSQL's wire limit). */
  maxParameters: number;
  /** Why the database cannot serve this now (gone, busy, out of space, too slow), else undefined: a 503. */
  outage(error: unknown): Outage | undefined;
  /** A value the column cannot hold (out of its range, a NUL byte in text): bad input, a 400. */
  isBadValue(error: unknown): boolean;
}

export interface Outage {
  kind: 'unreachable' | 'busy' | 'full';
  message: string;
  retryAfterSeconds: number;
}
