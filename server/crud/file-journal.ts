// Keeps stored files and rows in agreement across a crash. A write puts its files in place before it commits,
// keeping each replaced file as a backup, and first writes a journal of those moves to DATA_DIR/.staging; its
// transaction also inserts a marker row. At start, a journal whose marker committed has its backups deleted,
// any other is undone (backups restored, new files removed); then the staging folder is emptied and every
// file under the upload folders that no row names is removed, with the folders it leaves empty.
import { access, open, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { Kysely } from 'kysely';
import type { Engine } from '../core/context.ts';

/** What the start's recovery reads: the tables, their models and DATA_DIR. */
type FileRecovery = Pick<Engine, 'db' | 'models' | 'dataDir'>;
import { STAGING, localPath, storedFileFields } from '../core/file-paths.ts';

/** Engine bookkeeping, created at start like schema_migrations: one row per committed write that moved files. */
export const FILE_WRITES_TABLE = 'file_writes';

export interface Move {
  /** Where the new file goes. */
  target: string;
  /** Where the file it replaces waits until the commit; null when there was none. */
  backup: string | null;
}
export interface Journal {
  id: string;
  moves: Move[];
}

function ownerAlive(name: string): boolean {
  const pid = Number(/^(\d+)-/.exec(name)?.[1]);
  if (!pid || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes a file and flushes it to the disk before anyone relies on it. */
export async function writeDurably(path: string, data: Buffer | string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// One write at a time per target path in this process: a second write of the same file waits for the first
// to commit or roll back, so neither restores a backup over the other's file.
const held = new Map<string, Promise<void>>();

/** Waits for `path` and holds it until the returned function is called. */
export async function lockPath(path: string): Promise<() => void> {
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const before = held.get(path) ?? Promise.resolve();
  const chain = before.then(() => mine);
  held.set(path, chain);
  await before;
  return () => {
    release();
    if (held.get(path) === chain) held.delete(path);
  };
}

export async function ensureFileWritesTable(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(FILE_WRITES_TABLE)
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();
}

/** Removes the folders between `file` and `root` that are left empty (never `root` itself). */
export async function pruneEmptyFolders(file: string, root: string): Promise<void> {
  for (let dir = dirname(file); dir.startsWith(root + sep); dir = dirname(dir)) {
    try {
      await rmdir(dir);
    } catch {
      return; // not empty (or already gone): the folders above are not empty either
    }
  }
}

export const exists = (path: string) => access(path).then(() => true, () => false);

/**
 * A journal as its writer left it. One that a crash cut short (created, not yet written whole) lists moves that were
 * never made: a write makes none before its journal is on the disk. It reads as no moves, so the server starts.
 */
async function readJournal(path: string): Promise<Journal> {
  const text = await readFile(path, 'utf8').catch(() => '');
  try {
    const journal = JSON.parse(text) as Partial<Journal>;
    return { id: typeof journal.id === 'string' ? journal.id : '', moves: Array.isArray(journal.moves) ? journal.moves : [] };
  } catch {
    return { id: '', moves: [] };
  }
}

/** Finishes or undoes the file moves of writes a crash interrupted. */
async function replayJournals(engine: FileRecovery, staging: string, names: string[]): Promise<void> {
  for (const name of names.filter((n) => n.endsWith('.journal'))) {
    const journal = await readJournal(join(staging, name));
    const committed = journal.id
      ? !!(await engine.db.selectFrom(FILE_WRITES_TABLE).select('id').where('id', '=', journal.id).executeTakeFirst())
      : false;
    for (const move of [...journal.moves].reverse()) {
      if (committed) continue;
      if (move.backup === null) await rm(move.target, { force: true });
      else if (await exists(move.backup)) await rename(move.backup, move.target);
    }
    if (journal.id) await engine.db.deleteFrom(FILE_WRITES_TABLE).where('id', '=', journal.id).execute();
    await rm(join(staging, name), { force: true });
  }
}

/** Stored files every row names, as absolute paths. */
async function namedFiles(engine: FileRecovery) {
  const named = new Set<string>();
  for (const model of engine.models.values()) {
    const fields = [...storedFileFields(model)];
    if (!fields.length) continue;
    for (const row of await engine.db.selectFrom(model.table).select(fields).execute()) {
      for (const field of fields) {
        const full = typeof row[field] === 'string' ? localPath(engine.dataDir, row[field] as string) : undefined;
        if (full) named.add(full);
      }
    }
  }
  return named;
}

/**
 * Run once at start, before the server answers: replays interrupted writes, empties the staging folder of
 * what dead processes left, and removes files under `folders` (DATA_DIR-relative) that no row names.
 * @example await recoverFiles(engine, ['whitelabels'])
 */
export async function recoverFiles(engine: FileRecovery, folders: string[]): Promise<void> {
  await ensureFileWritesTable(engine.db);
  const staging = join(engine.dataDir, STAGING);
  const leftovers = (await readdir(staging).catch(() => [] as string[])).filter((name) => !ownerAlive(name));
  await replayJournals(engine, staging, leftovers);
  const busyTargets = new Set<string>();
  const liveJournals: string[] = [];
  for (const name of (await readdir(staging).catch(() => [] as string[]))) {
    if (ownerAlive(name) && name.endsWith('.journal')) {
      const journal = await readJournal(join(staging, name));
      if (journal.id) liveJournals.push(journal.id);
      for (const move of journal.moves) busyTargets.add(move.target);
    } else if (!ownerAlive(name)) {
      await rm(join(staging, name), { force: true, recursive: true });
    }
  }
  // A marker whose journal is gone (its writer finished, or left it after a failed delete) means nothing.
  let stale = engine.db.deleteFrom(FILE_WRITES_TABLE);
  if (liveJournals.length) stale = stale.where('id', 'not in', liveJournals);
  await stale.execute();
  const named = await namedFiles(engine);
  for (const folder of folders) {
    const root = join(engine.dataDir, folder);
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = join(entry.parentPath, entry.name);
      if (!entry.isFile() || named.has(full) || busyTargets.has(full)) continue;
      await rm(full, { force: true });
      await pruneEmptyFolders(full, root);
    }
    // Folders emptied before this start (a crash after a delete) go too, the deepest first.
    const folders = entries.filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name));
    for (const dir of folders.sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => {});
  }
}
