// `npm run backup` and `npm run restore`: a consistent copy of the database and of the uploaded files, taken
// while the server runs. Writes put their files in place inside their transaction (server/crud/files.ts), so
// holding off the writes that move files for the moment the files are copied, and copying the database as it
// was at that moment, gives a copy whose rows and files agree. SQLite: a read transaction pins the moment
// while the write lock is held for the file copy (milliseconds), then SQLite's backup API copies that
// snapshot. PostgreSQL: the tables with stored files are locked in SHARE mode (their writes wait; no others
// do) and pg_dump dumps the exported snapshot of that moment. Both hold the data lock (server/db/locks.ts) as
// the servers do, shared; a restore needs it alone, so it never replaces the data under a running server.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from './config.ts';
import { isPostgresUrl } from './db/database.ts';
import { knownServers, tryBackupLock, tryRestoreLock, type DataLock, type KnownServer } from './db/locks.ts';
import { loadManifestDir } from './manifests.ts';
import { uploadFolders } from './plugins/assets.ts';

export const SQLITE_FILE = 'panel.sqlite';
const DUMP_FILE = 'panel.dump';
const FILES = 'files';

export interface BackupInfo {
  createdAt: string;
  database: 'sqlite' | 'postgres';
  /** Upload folders copied under files/ (DATA_DIR-relative). */
  folders: string[];
}

/** Runs a program to its end; rejects with its error output. */
function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let errors = '';
    child.stderr!.on('data', (d) => (errors += d));
    child.on('error', (error) => reject(new Error(`${program} could not start (${error.message}); is it installed?`)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} failed (${code}): ${errors.trim()}`))));
  });
}

async function copyTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true }).catch(() => []);
  await mkdir(to, { recursive: true });
  for (const entry of entries) {
    if (entry.isDirectory()) await copyTree(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile()) await copyFile(join(from, entry.name), join(to, entry.name));
  }
}

interface Target {
  folders: string[];
  /** Tables whose rows name stored files. */
  fileTables: string[];
}

function targetOf(config: Config): Target {
  const manifests = loadManifestDir(config.schemasDir);
  return {
    folders: uploadFolders(manifests),
    fileTables: manifests.filter((m) => m.table && Object.values(m.storage?.files ?? {}).some((rule) => rule.path)).map((m) => m.table!),
  };
}

/**
 * Writes a consistent copy of the database and the uploaded files to `destination` (created; must not exist).
 * @example await backup(loadConfig(), 'backups/2025-11-23')
 */
export async function backup(config: Config, destination: string): Promise<BackupInfo> {
  if (existsSync(destination)) throw new Error(`${destination} already exists: a backup goes to a new folder`);
  const lock = await tryBackupLock(config);
  if (!lock) throw new Error('A restore is running on this data; back up after it ends');
  try {
    return await backupLocked(config, destination);
  } finally {
    await lock.release();
  }
}

async function backupLocked(config: Config, destination: string): Promise<BackupInfo> {
  await mkdir(destination, { recursive: true });
  const target = targetOf(config);
  const copyFiles = () => Promise.all(target.folders.map((f) => copyTree(join(config.dataDir, f), join(destination, FILES, f))));
  const info: BackupInfo = { createdAt: new Date().toISOString(), database: isPostgresUrl(config.databaseUrl) ? 'postgres' : 'sqlite', folders: target.folders };
  if (info.database === 'postgres') {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      await client.query('begin isolation level repeatable read');
      // Before the first query, so that the snapshot is taken with the locks held.
      for (const table of target.fileTables) await client.query(`lock table "${table}" in share mode`);
      const { rows } = await client.query('select pg_export_snapshot() as id');
      await copyFiles();
      await run('pg_dump', ['--format=custom', '--no-owner', `--snapshot=${rows[0].id}`, `--file=${join(destination, DUMP_FILE)}`, `--dbname=${config.databaseUrl}`]);
      await client.query('commit');
    } finally {
      await client.end();
    }
  } else {
    const file = join(config.dataDir, SQLITE_FILE);
    if (!existsSync(file)) throw new Error(`No database at ${file}`);
    const lock = new SQLite(file);
    const reader = new SQLite(file);
    try {
      lock.pragma('busy_timeout = 10000'); // a write in flight finishes first
      lock.exec('begin immediate');
      try {
        reader.exec('begin');
        reader.prepare('select count(*) from sqlite_master').get(); // the read transaction starts here
        await copyFiles();
      } finally {
        lock.exec('rollback');
      }
      // The backup API reads the reader's snapshot; the server writes again meanwhile.
      await reader.backup(join(destination, SQLITE_FILE));
      reader.exec('commit');
    } finally {
      lock.close();
      reader.close();
    }
    const copy = new SQLite(join(destination, SQLITE_FILE), { readonly: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`The copy failed its integrity check: ${String(check)}`);
    } finally {
      copy.close();
    }
  }
  await writeFile(join(destination, 'backup.json'), `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

/** How long `restore --stop-server` waits for the servers it signalled to close (their stop takes up to 15 s). */
export const STOP_WAIT_MS = 30_000;

const named = (servers: KnownServer[]) =>
  servers.length ? servers.map((s) => `pid ${s.pid}${s.local ? '' : ` on ${s.host}`}`).join(', ') : 'pid unknown, or a backup';

/** A restore refused because a server (or a backup) holds the data: nothing was changed. */
export class ServerRunningError extends Error {
  constructor(readonly servers: KnownServer[]) {
    super(
      `A server is running on this data (${named(servers)}): a restore now would drop the writes it goes on acknowledging. ` +
        'Nothing was changed. Stop the server and run the restore again, or add --stop-server (npm run restore -- <folder> --stop-server) to stop it first.',
    );
    this.name = 'ServerRunningError';
  }
}

export interface RestoreOptions {
  /** Signal the servers holding the data (SIGTERM: they finish their requests and close) and wait for them. */
  stopServer?: boolean;
  /** How long to wait for them; default STOP_WAIT_MS. */
  stopWaitMs?: number;
}

/**
 * Puts a backup back: the database (SQLite: the file replaced; PostgreSQL: pg_restore into DATABASE_URL's
 * database) and the upload folders (the current ones are kept beside, renamed). It holds the data lock alone
 * meanwhile: while a server runs it throws ServerRunningError and changes nothing, unless `stopServer` stops it.
 * @example await restore(loadConfig(), 'backups/2025-11-23', { stopServer: true })
 */
export async function restore(config: Config, source: string, options: RestoreOptions = {}): Promise<{ keptAside: string[]; stopped: KnownServer[] }> {
  const info = JSON.parse(await readFile(join(source, 'backup.json'), 'utf8')) as BackupInfo;
  const database = isPostgresUrl(config.databaseUrl) ? 'postgres' : 'sqlite';
  if (info.database !== database) throw new Error(`This is a ${info.database} backup; the configured database is ${database}`);
  let lock: DataLock | undefined = await tryRestoreLock(config);
  let stopped: KnownServer[] = [];
  if (!lock) {
    const servers = await knownServers(config);
    const remote = servers.filter((s) => !s.local);
    if (!options.stopServer) throw new ServerRunningError(servers);
    if (remote.length) throw new Error(`Servers on other hosts hold this data (${named(remote)}): stop them there, then restore. Nothing was changed.`);
    stopped = servers;
    for (const server of servers) {
      try {
        process.kill(server.pid, 'SIGTERM');
      } catch {
        // Gone since it was listed: the lock below is what counts.
      }
    }
    lock = await tryRestoreLock(config, options.stopWaitMs ?? STOP_WAIT_MS);
    if (!lock) {
      throw new Error(`The data is still held ${(options.stopWaitMs ?? STOP_WAIT_MS) / 1000} s after the stop signal (${named(await knownServers(config))}). Nothing was changed.`);
    }
  }
  try {
    return { keptAside: await restoreLocked(config, source, info), stopped };
  } finally {
    await lock.release();
  }
}

async function restoreLocked(config: Config, source: string, info: BackupInfo): Promise<string[]> {
  if (info.database === 'postgres') {
    await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--single-transaction', `--dbname=${config.databaseUrl}`, join(source, DUMP_FILE)]);
  } else {
    await mkdir(config.dataDir, { recursive: true });
    const file = join(config.dataDir, SQLITE_FILE);
    await copyFile(join(source, SQLITE_FILE), `${file}.restoring`);
    await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(`${file}${suffix}`, { force: true })));
    await rename(`${file}.restoring`, file);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const keptAside: string[] = [];
  for (const folder of info.folders) {
    const current = join(config.dataDir, folder);
    if (existsSync(current)) {
      keptAside.push(`${current}.before-restore-${stamp}`);
      await rename(current, keptAside[keptAside.length - 1]);
    }
    await copyTree(join(source, FILES, folder), current);
  }
  return keptAside;
}
