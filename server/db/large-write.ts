// A large write on SQLite without a long stall (issue 14: the IP import of up to 1,000,000 rows, one transaction).
// better-sqlite3 runs every statement and the COMMIT on the thread that calls it; a commit of a quarter-gigabyte
// transaction held the event loop 0.25-0.35 s (re-reading and checksumming the WAL frames it had rewritten), even
// with the automatic checkpoint moved to a worker. So the whole transaction runs on a worker thread with its own
// connection to the file, reached through a Kysely of its own (the audit row goes the same way, so both commit
// together), while the server's own connection is held: Kysely runs that one connection behind a mutex, so every
// other query waits for the import asynchronously, as it waited for the import's transaction before, and no
// statement of the server's can meet the worker's write lock. The worker checkpoints after its commit (PASSIVE),
// so no later commit on the event loop finds a quarter-gigabyte WAL to copy. The worker's connection answers a lock
// held elsewhere or a full disk as every other write does (server/db/guard.ts): a 503, and nothing stored.
import {
  CompiledQuery,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Capabilities } from './capabilities.ts';
import { guardDialect, guardError, type DatabaseHealth } from './guard.ts';

export interface WorkerQueryResult {
  rows: unknown[];
  changes?: number;
  lastInsertRowid?: number;
}

/** A worker thread that runs SQL on a connection of its own (the IP import's: server/actions/ip-import-worker.ts). */
export interface WorkerQueries {
  /** Opens the file with the server's own settings; `maxPageCount`: the size cap the server's connection has. */
  open(file: string, maxPageCount: number): Promise<void>;
  query(sql: string, parameters: readonly unknown[]): Promise<WorkerQueryResult>;
  /** Checkpoints after the commit and closes the connection (and the thread); never throws. */
  close(): Promise<void>;
}

/** SQLite: the database file, which a worker thread opens too (the server always opens a file: database.ts). */
export async function sqliteFile(db: Kysely<any>): Promise<string> {
  const files = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  const file = files.rows.find((row) => row.name === 'main')?.file;
  if (!file) throw new Error('A large write needs the SQLite database in a file: a worker thread opens it too');
  return file;
}

class WorkerConnection implements DatabaseConnection {
  constructor(private readonly worker: WorkerQueries) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, changes, lastInsertRowid } = await this.worker.query(query.sql, query.parameters);
    return {
      rows: rows as R[],
      ...(changes === undefined ? {} : { numAffectedRows: BigInt(changes), insertId: lastInsertRowid === undefined ? undefined : BigInt(lastInsertRowid) }),
    };
  }
  // eslint-disable-next-line require-yield -- no caller streams on this connection
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('A worker connection does not stream');
  }
}

/** Kysely's driver for one worker connection; BEGIN IMMEDIATE as the server's own (server/db/database.ts). */
class WorkerDriver implements Driver {
  private readonly connection: WorkerConnection;
  constructor(
    private readonly worker: WorkerQueries,
    private readonly file: string,
    private readonly maxPageCount: number,
  ) {
    this.connection = new WorkerConnection(worker);
  }
  async init() {
    await this.worker.open(this.file, this.maxPageCount);
  }
  async acquireConnection() {
    return this.connection;
  }
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch (error) {
      // SQLite ends the transaction itself on some failures (SQLITE_FULL, SQLITE_IOERR): the write's own error is
      // what the caller must hear (as server/db/guard.ts does for the server's connection).
      if (!/no transaction is active/.test((error as Error).message)) throw error;
    }
  }
  async releaseConnection() {}
  async destroy() {}
}

/** What the worker's connection needs to fail as the server's does: the dialect's outages and the outage log. */
export interface WriteGuard {
  caps: Capabilities;
  health: DatabaseHealth;
}

/**
 * Runs `write` with a Kysely over the worker's own connection to the SQLite file behind `db`, while `db`'s
 * connection is held, then closes the worker; when there is no `file` (PostgreSQL, an in-memory SQLite), with `db`
 * itself. Every failure on the worker's connection, its statements' or the worker's own work's, is worded as `db`'s.
 * @example await onWorkerConnection(engine.db, worker, await engine.caps.workerWriteFile(engine.db), engine, (db) => db.transaction().execute(...))
 */
export async function onWorkerConnection<T>(
  db: Kysely<any>,
  worker: WorkerQueries,
  file: string | undefined,
  guard: WriteGuard,
  write: (db: Kysely<any>) => Promise<T>,
): Promise<T> {
  if (!file) return write(db);
  return db.connection().execute(async (held) => {
    // A size cap set on the server's connection (PRAGMA max_page_count) holds for the import as well.
    const { rows } = await sql<{ max_page_count: number }>`pragma max_page_count`.execute(held);
    const own = new Kysely<any>({
      dialect: guardDialect(
        {
          createAdapter: () => new SqliteAdapter(),
          createDriver: () => new WorkerDriver(worker, file, Number(rows[0].max_page_count)),
          createIntrospector: (k) => new SqliteIntrospector(k),
          createQueryCompiler: () => new SqliteQueryCompiler(),
        },
        guard.caps,
        guard.health,
      ),
    });
    try {
      return await write(own);
    } catch (error) {
      // Work the worker does besides statements (inserting the rows it holds) fails with SQLite's own errors.
      throw guardError(guard.caps, guard.health, error);
    } finally {
      await worker.close();
    }
  });
}
