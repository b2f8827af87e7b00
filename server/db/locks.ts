// Locks that hold across every server process on one database. PostgreSQL: advisory locks keyed by a name's
// hash. SQLite: one writer at a time is already the file's own rule (BEGIN IMMEDIATE), so the locks only have
// to order the work of this process.
import { sql, type Kysely } from 'kysely';
import type { Capabilities } from './database.ts';

const key = (name: string) => sql`hashtextextended(${`wl-panel:${name}`}, 0)`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` while holding the lock `name` for the whole process group: a second process calling it meanwhile
 * waits until the first one's work ended. Used for the start (schema sync, migrations, the first admin), so
 * processes started at once on an empty database create each table once. The wait polls (pg_try_advisory_lock)
 * instead of blocking in one statement, so the statement time limit never cuts it short.
 * @example await whileLocked(db, caps, 'start', () => syncSchema(db, caps, models));
 */
export async function whileLocked<T>(db: Kysely<any>, caps: Capabilities, name: string, work: () => Promise<T>, pollMs = 100): Promise<T> {
  if (caps.name !== 'postgres') return work();
  return db.connection().execute(async (connection) => {
    for (;;) {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key(name)}) as locked`.execute(connection);
      if (rows[0].locked) break;
      await sleep(pollMs);
    }
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${key(name)})`.execute(connection);
    }
  });
}

/**
 * Takes the lock `name` until the caller's transaction ends, unless some process's transaction holds it: then
 * false at once (the caller refuses instead of queueing a second run of a long job behind the first).
 * @example if (!(await tryTransactionLock(trx, caps, 'build.reload'))) throw conflict('a reload is running');
 */
export async function tryTransactionLock(trx: Kysely<any>, caps: Capabilities, name: string): Promise<boolean> {
  if (caps.name !== 'postgres') return true;
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${key(name)}) as locked`.execute(trx);
  return rows[0].locked;
}
