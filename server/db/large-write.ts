// A large write on SQLite without a long stall at its end (issue 14: the IP import of up to 1,000,000 rows, one
// transaction). better-sqlite3 runs the COMMIT on the event loop, and a commit of a quarter-gigabyte transaction
// did three slow things there: SQLite's automatic checkpoint copied the whole WAL into the database file (0.3-0.6 s),
// the WAL's fsync flushed every frame the transaction had spilled, and the frames it rewrote were read back for their
// checksums (0.1-0.2 s each, per million rows on this machine). Here the automatic checkpoint is off from the
// write's start until after its end, and the checkpoint then runs on a worker thread with its own connection
// (PASSIVE: readers and writers go on meanwhile). What stays on the event loop is the commit itself, 0.25-0.35 s
// for a million rows on this busy machine, mostly re-reading and checksumming the WAL frames the transaction
// rewrote. Flushing the WAL from the thread pool while statements run stalled them instead (writes to pages being
// written back wait), and flushing between statements gained nothing measurable. Only running the whole
// transaction on a thread of its own would remove it.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';

export interface LargeWrite {
  /** When the write's statements are done, still inside its transaction: what follows waits for its end. */
  done(): void;
}

/** For databases that need nothing (PostgreSQL commits on its own server). */
export const noLargeWrite = async (): Promise<LargeWrite> => ({ done() {} });

// CommonJS run with eval and without the parent's flags (as the read pool's workers).
const CHECKPOINT = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { fileMustExist: true });
let result;
// Readers still on an older snapshot keep some frames from being copied: try again a few times.
for (let attempt = 0; attempt < 20; attempt++) {
  result = db.pragma('wal_checkpoint(PASSIVE)')[0];
  if (result.busy === 0 && result.checkpointed === result.log) break;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
}
db.close();
parentPort.postMessage(result);
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/** Runs a PASSIVE checkpoint of `file` on a worker thread. */
function checkpointOffThread(file: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CHECKPOINT, { eval: true, execArgv: [], workerData: { file, driver } });
    worker.unref();
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`checkpoint worker exited with ${code}`))));
  });
}

/** Large writes under way per database file, and the automatic checkpoint to restore after the last one. */
const running = new Map<string, { count: number; autocheckpoint: number }>();

/**
 * SQLite: starts a large write in the transaction `trx` of the connection `db` (one connection: a query on `db`
 * waits until the transaction has ended, which is how the work after the commit is scheduled).
 * @example const large = await sqliteLargeWrite(trx, engine.db); ...insert...; large.done();
 */
export async function sqliteLargeWrite(trx: Kysely<any>, db: Kysely<any>): Promise<LargeWrite> {
  const files = await sql<{ name: string; file: string }>`pragma database_list`.execute(trx);
  const file = files.rows.find((row) => row.name === 'main')?.file;
  if (!file) return noLargeWrite(); // an in-memory database has no WAL
  let state = running.get(file);
  if (!state) {
    // Read once per file, before this module ever turned it off: a later read could see the 0 of a write whose
    // checkpoint is still under way.
    const current = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(trx);
    state = { count: 0, autocheckpoint: Number(current.rows[0]?.wal_autocheckpoint ?? 1000) };
    running.set(file, state);
  }
  if (state.count === 0) await sql`pragma wal_autocheckpoint = 0`.execute(trx);
  state.count += 1;
  const started = state;
  return {
    done() {
      // Runs once the write's transaction has committed or rolled back.
      const after = async () => void (await sql`select 1`.execute(db));
      const restore = async () => {
        if (--started.count > 0) return;
        await checkpointOffThread(file);
        if (started.count === 0) await sql`pragma wal_autocheckpoint = ${sql.raw(String(started.autocheckpoint))}`.execute(db);
      };
      // A failure here means the database was closed meanwhile (the server stopping): nothing is left to restore.
      void after()
        .catch(() => {})
        .then(restore)
        .catch(() => {});
    },
  };
}
