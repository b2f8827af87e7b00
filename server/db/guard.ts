// Stands between Kysely and the real driver: a database that is gone, busy or full becomes a 503 (logged once
// per outage, recovered from by itself), and a value a column cannot hold becomes a 400, on every query of the
// server, in or out of a transaction. What counts as which is the dialect's Capabilities, not a branch here.
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { AppError, UnavailableError } from '../errors.ts';
import type { Capabilities, Outage } from './capabilities.ts';

/** An outage ends only after this long without a failure, so a burst of dying connections is one outage. */
export const SETTLE_MS = 1_000;

/** Remembers whether the database is out, so an outage is logged when it starts and when it ends, not per request. */
export class DatabaseHealth {
  private outage: Outage | undefined;
  private lastFailure = 0;
  constructor(private readonly log: (line: string) => void) {}

  down(outage: Outage, error: unknown): void {
    this.lastFailure = Date.now();
    if (this.outage) return;
    this.outage = outage;
    const detail = error instanceof Error ? error.message : String(error);
    this.log(`database unavailable (${outage.kind}: ${detail}); answering 503 until it recovers`);
  }

  /** A statement answered (`committed`: a write went through). A busy lock or a full disk ends only with a commit. */
  answered(committed: boolean): void {
    if (!this.outage || (this.outage.kind !== 'unreachable' && !committed) || Date.now() - this.lastFailure < SETTLE_MS) return;
    this.log(`database available again after: ${this.outage.kind}`);
    this.outage = undefined;
  }
}

/**
 * The error a query failed with as the server answers it: an outage a 503, a bad value a 400, anything else as it
 * was. Exported for work that reaches the database outside a guarded dialect (a worker thread's own connection).
 * @example throw guardError(caps, health, error)
 */
export function guardError(caps: Capabilities, health: DatabaseHealth, error: unknown): unknown {
  if (error instanceof AppError) return error;
  const outage = caps.outage(error);
  if (outage) {
    health.down(outage, error);
    return new UnavailableError(outage.message, outage.retryAfterSeconds);
  }
  if (caps.isBadValue(error)) return new AppError(400, 'A value is out of range or not valid for its column');
  return error;
}

/** What a success shows: taking a pooled connection proves nothing, a statement's answer proves reachability. */
type Proof = 'nothing' | 'answered' | 'committed';

class GuardedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly run: <T>(work: () => Promise<T>, proves?: Proof) => Promise<T>,
  ) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.run(() => this.inner.executeQuery<R>(query), 'answered');
  }
  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class GuardedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly caps: Capabilities,
    private readonly health: DatabaseHealth,
  ) {}

  private run = async <T>(work: () => Promise<T>, proves: Proof = 'nothing'): Promise<T> => {
    try {
      const result = await work();
      if (proves !== 'nothing') this.health.answered(proves === 'committed');
      return result;
    } catch (error) {
      throw guardError(this.caps, this.health, error);
    }
  };

  init(): Promise<void> {
    return this.run(() => this.inner.init());
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new GuardedConnection(await this.run(() => this.inner.acquireConnection()), this.run);
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.run(() => this.inner.beginTransaction((connection as GuardedConnection).inner, settings));
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.run(() => this.inner.commitTransaction((connection as GuardedConnection).inner), 'committed');
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.run(async () => {
      try {
        await this.inner.rollbackTransaction((connection as GuardedConnection).inner);
      } catch (error) {
        // SQLite ends the transaction itself on some failures (SQLITE_FULL, SQLITE_IOERR): the write's own error,
        // not this rollback's, is what the caller must hear.
        if (!/no transaction is active/.test((error as Error).message)) throw error;
      }
    });
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as GuardedConnection).inner);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The dialect with every query guarded. */
export function guardDialect(dialect: Dialect, caps: Capabilities, health: DatabaseHealth): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new GuardedDriver(dialect.createDriver(), caps, health),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
