// Locks that hold across every server process on one database. PostgreSQL: advisory locks keyed by a name's
// hash. SQLite: one writer at a time is already the file's own rule (BEGIN IMMEDIATE), so the locks only have
// to order the work of this process. Below them, the data lock that keeps a restore from running beside a server.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { isPostgresUrl, type Capabilities } from './database.ts';

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
  if (!caps.advisoryLocks) return work();
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
  if (!caps.advisoryLocks) return true;
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${key(name)}) as locked`.execute(trx);
  return rows[0].locked;
}

// The data lock: every server process holds it shared for its whole life, a backup shared for its copy, a restore
// exclusively, so a restore cannot run beside a server (whose acknowledged writes it would drop) and a server
// cannot start during a restore. SQLite: the file locks of a companion database (a read transaction holds SHARED,
// BEGIN EXCLUSIVE needs every other one gone), released by the OS when a process dies. PostgreSQL: a session-level
// advisory lock on a connection of its own, released by PostgreSQL when that session ends.

/** The SQLite database in DATA_DIR whose file locks are the data lock; it holds no data. */
export const LOCK_FILE = 'panel.lock';
/** Where each server process on a SQLite DATA_DIR notes its pid, so that `restore --stop-server` can signal it. */
const SERVERS_DIR = '.servers';
const DATA_KEY = 'data';
// PostgreSQL keeps 63 bytes of an application_name.
const serverName = (pid: number, host: string) => `wl-panel server ${pid}@${host}`.slice(0, 63);
const SERVER_NAME = /^wl-panel server (\d+)@(.*)$/;

export interface DataLockTarget {
  dataDir: string;
  databaseUrl?: string;
}

/** A hold on the data lock; release() lets it go (a process that dies lets it go too). */
export interface DataLock {
  release(): Promise<void>;
}

/** A server process that holds the data lock, as far as this host can tell. */
export interface KnownServer {
  pid: number;
  /** Its host; a process on another host cannot be signalled from here. */
  host: string;
  local: boolean;
}

const busy = (error: unknown) => String((error as { code?: string } | null)?.code ?? '').startsWith('SQLITE_BUSY');

/** Opens the SQLite lock database and tries `begin` + a read (shared) or `begin exclusive`; undefined while it conflicts. */
function trySqliteLock(dataDir: string, mode: 'shared' | 'exclusive'): SQLite.Database | undefined {
  mkdirSync(dataDir, { recursive: true });
  const lock = new SQLite(join(dataDir, LOCK_FILE));
  try {
    lock.pragma('busy_timeout = 0');
    if (mode === 'exclusive') lock.exec('begin exclusive');
    else {
      lock.exec('begin');
      lock.prepare('select count(*) from sqlite_master').get(); // the read transaction (SHARED lock) starts here
    }
    return lock;
  } catch (error) {
    lock.close();
    if (busy(error)) return undefined;
    throw error;
  }
}

const releaseSqlite = (lock: SQLite.Database) => async () => {
  if (lock.inTransaction) lock.exec('rollback');
  lock.close();
};

async function pgClient(databaseUrl: string, applicationName = 'wl-panel data lock'): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: applicationName });
  await client.connect();
  return client;
}

async function tryPgLock(client: pg.Client, mode: 'shared' | 'exclusive'): Promise<boolean> {
  const fn = mode === 'shared' ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock';
  const { rows } = await client.query<{ locked: boolean }>(`select ${fn}(hashtextextended($1, 0)) as locked`, [`wl-panel:${DATA_KEY}`]);
  return rows[0].locked;
}

/** A process's start time (Linux), so that a pid noted by a server that died and was reused is not signalled. */
function startTime(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ')[19];
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Takes the data lock shared for the life of this server process (server/main.ts), waiting while a restore holds it.
 * Several servers hold it together; a backup shares it too. SQLite: the pid is noted in DATA_DIR/.servers meanwhile.
 * PostgreSQL: the lock's connection is named after the pid and host, and taken again if it is lost.
 * @example const lock = await holdServerLock(config, console.error); ...; await lock.release();
 */
export async function holdServerLock(target: DataLockTarget, log: (line: string) => void, pollMs = 200): Promise<DataLock> {
  let told = false;
  const waiting = () => {
    if (!told) log('Waiting for the data lock: a restore is running on this data; the server starts once it ends');
    told = true;
  };
  if (target.databaseUrl && isPostgresUrl(target.databaseUrl)) {
    const url = target.databaseUrl;
    let client: pg.Client | undefined;
    let released = false;
    const take = async (): Promise<void> => {
      const next = await pgClient(url, serverName(process.pid, hostname()));
      next.on('error', (error) => {
        if (released || client !== next) return; // before the lock is held, take() itself fails (and is retried)
        client = undefined;
        log(`THE DATA LOCK'S CONNECTION TO POSTGRESQL WAS LOST (${error.message}); taking it again`);
        void next.end().catch(() => {});
        retry();
      });
      try {
        while (!(await tryPgLock(next, 'shared'))) {
          waiting();
          await sleep(pollMs);
        }
      } catch (error) {
        void next.end().catch(() => {});
        throw error;
      }
      if (released) await next.end();
      else client = next;
    };
    const retry = (): void => void take().then(() => log('Holding the data lock again'), () => setTimeout(retry, 2_000).unref());
    await take();
    return {
      async release() {
        released = true;
        await client?.end().catch(() => {});
      },
    };
  }
  let lock: SQLite.Database | undefined;
  while (!(lock = trySqliteLock(target.dataDir, 'shared'))) {
    waiting();
    await sleep(pollMs);
  }
  const noted = join(target.dataDir, SERVERS_DIR, `${process.pid}.json`);
  mkdirSync(join(target.dataDir, SERVERS_DIR), { recursive: true });
  writeFileSync(noted, JSON.stringify({ pid: process.pid, host: hostname(), startTime: startTime(process.pid) }));
  const forget = () => rmSync(noted, { force: true });
  process.once('exit', forget);
  const release = releaseSqlite(lock);
  return {
    async release() {
      forget();
      await release();
    },
  };
}

/**
 * Takes the data lock shared for a backup, or undefined at once while a restore holds it.
 * @example const lock = await tryBackupLock(config); if (!lock) throw new Error('a restore is running');
 */
export async function tryBackupLock(target: DataLockTarget): Promise<DataLock | undefined> {
  return tryLock(target, 'shared');
}

/**
 * Takes the data lock exclusively for a restore: at once, or within `waitMs` (while stopped servers close), else undefined.
 * @example const lock = await tryRestoreLock(config, 30_000);
 */
export async function tryRestoreLock(target: DataLockTarget, waitMs = 0, pollMs = 100): Promise<DataLock | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const lock = await tryLock(target, 'exclusive');
    if (lock || Date.now() + pollMs > deadline) return lock;
    await sleep(pollMs);
  }
}

async function tryLock(target: DataLockTarget, mode: 'shared' | 'exclusive'): Promise<DataLock | undefined> {
  if (target.databaseUrl && isPostgresUrl(target.databaseUrl)) {
    const client = await pgClient(target.databaseUrl);
    try {
      if (await tryPgLock(client, mode)) return { release: () => client.end() };
    } catch (error) {
      await client.end();
      throw error;
    }
    await client.end();
    return undefined;
  }
  const lock = trySqliteLock(target.dataDir, mode);
  return lock && { release: releaseSqlite(lock) };
}

/**
 * The server processes that hold the data lock, as far as they can be known: SQLite, the live pids noted in
 * DATA_DIR/.servers (a note whose process is gone is removed); PostgreSQL, the lock connections' names.
 * @example for (const s of await knownServers(config)) if (s.local) process.kill(s.pid, 'SIGTERM');
 */
export async function knownServers(target: DataLockTarget): Promise<KnownServer[]> {
  const here = hostname();
  if (target.databaseUrl && isPostgresUrl(target.databaseUrl)) {
    const client = await pgClient(target.databaseUrl);
    try {
      const { rows } = await client.query<{ name: string }>(
        `select application_name as name from pg_stat_activity where datname = current_database() and application_name like 'wl-panel server %'`,
      );
      return rows.flatMap(({ name }) => {
        const [, pid, host] = SERVER_NAME.exec(name) ?? [];
        return pid ? [{ pid: Number(pid), host, local: name === serverName(Number(pid), here) }] : [];
      });
    } finally {
      await client.end();
    }
  }
  const dir = join(target.dataDir, SERVERS_DIR);
  const servers: KnownServer[] = [];
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    try {
      const noted = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { pid: number; host: string; startTime?: string };
      if (noted.host !== here || (alive(noted.pid) && startTime(noted.pid) === noted.startTime)) {
        servers.push({ pid: noted.pid, host: noted.host, local: noted.host === here });
        continue;
      }
    } catch {
      // A note cut short (its server died writing it) is as stale as one whose process is gone.
    }
    rmSync(join(dir, name), { force: true });
  }
  return servers;
}
