// Opens the database: SQLite by default, PostgreSQL for a postgres:// URL. Every dialect difference the rest
// of the server needs is a field of Capabilities, so no other file branches on the dialect's name.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
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

export type ColumnKind = 'integer' | 'number' | 'string' | 'boolean' | 'json' | 'timestamp';

export interface Capabilities {
  name: 'sqlite' | 'postgres';
  /** SQL type of a column kind. */
  columnType(kind: ColumnKind): string;
  /** SQL type of the autoincrement primary key. */
  idType: string;
  /** Booleans are stored natively or as 0/1. */
  toDbBoolean(value: boolean): unknown;
  /** Case-insensitive LIKE operator. */
  likeInsensitive: 'like' | 'ilike';
  isUniqueViolation(error: unknown): boolean;
  isForeignKeyViolation(error: unknown): boolean;
  /**
   * Serializes transactions on a key until the caller's transaction ends (the device lookup's collection
   * write, the device reports' upserts). SQLite needs nothing: BEGIN IMMEDIATE already holds the write lock.
   */
  lockKey(trx: Kysely<any>, key: string): Promise<void>;
  /**
   * A number that changes when another connection commits (SQLite's PRAGMA data_version), for caches that
   * must notice other processes' writes; null where the database has none (PostgreSQL, which has NOTIFY).
   */
  dataVersion(db: Kysely<any>): Promise<number | null>;
}

export interface Database {
  db: Kysely<any>;
  caps: Capabilities;
  close(): Promise<void>;
}

const code = (error: unknown) => (error as { code?: string } | null)?.code ?? '';

// better-sqlite3 runs one connection; BEGIN IMMEDIATE takes the write lock up front so two processes on
// one file wait on busy_timeout instead of failing with SQLITE_BUSY at commit.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

const sqliteCaps: Capabilities = {
  name: 'sqlite',
  columnType: (kind) => ({ integer: 'integer', number: 'real', string: 'text', boolean: 'integer', json: 'text', timestamp: 'text' })[kind],
  idType: 'integer',
  toDbBoolean: (value) => (value ? 1 : 0),
  likeInsensitive: 'like',
  isUniqueViolation: (e) => code(e) === 'SQLITE_CONSTRAINT_UNIQUE' || code(e) === 'SQLITE_CONSTRAINT_PRIMARYKEY',
  // ON DELETE RESTRICT reports SQLITE_CONSTRAINT_TRIGGER, an insert SQLITE_CONSTRAINT_FOREIGNKEY.
  isForeignKeyViolation: (e) =>
    code(e) === 'SQLITE_CONSTRAINT_FOREIGNKEY' || (code(e).startsWith('SQLITE_CONSTRAINT') && /FOREIGN KEY/.test(String((e as Error).message))),
  lockKey: async () => {},
  dataVersion: async (db) => Number((await sql<{ data_version: number }>`pragma data_version`.execute(db)).rows[0].data_version),
};

const postgresCaps: Capabilities = {
  name: 'postgres',
  columnType: (kind) =>
    ({ integer: 'bigint', number: 'double precision', string: 'text', boolean: 'boolean', json: 'text', timestamp: 'timestamptz' })[kind],
  idType: 'serial',
  toDbBoolean: (value) => value,
  likeInsensitive: 'ilike',
  isUniqueViolation: (e) => code(e) === '23505',
  isForeignKeyViolation: (e) => code(e) === '23503',
  lockKey: async (trx, key) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  },
  dataVersion: async () => null,
};

export const isPostgresUrl = (url?: string) => !!url && /^postgres(ql)?:\/\//.test(url);

export function openDatabase(options: { databaseUrl?: string; dataDir: string }): Database {
  if (isPostgresUrl(options.databaseUrl)) {
    // bigint (int8) comes back as a string by default; our integers fit in a double.
    pg.types.setTypeParser(20, (value) => Number(value));
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    return { db, caps: postgresCaps, close: () => db.destroy() };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, 'panel.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<any>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  return { db, caps: sqliteCaps, close: () => db.destroy() };
}
