// Upload fields (storage.files): files are checked before anything is written, then put in place inside the
// write's transaction, before its commit, with the files they replace kept until it has committed (and a
// journal, so that a crash at any point leaves files and rows in agreement: server/crud/file-journal.ts). A
// refused or failed write leaves the files as they were. The record keeps the URL path the file is served
// at (`/whitelabels/x.png`).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Kysely } from 'kysely';
import { badRequest, fieldError, onField } from '../errors.ts';
import { isUploadedFile } from '../plugins/uploads.ts';
import { checkUpload } from './file-checks.ts';
import type { EntityModel } from '../model/model.ts';
import type { Engine } from '../core/context.ts';
import { FILE_WRITES_TABLE, exists, lockPath, pruneEmptyFolders, writeDurably, type Journal } from './file-journal.ts';
import { STAGING, fileRules, localPath, stagingPath, storedFileFields } from '../core/file-paths.ts';

/**
 * Takes the uploads out of a caller's input: JSON files become the record value of their field, stored files
 * are returned by field. Throws a 400/413 naming the field for a file where text is expected, text where a
 * file is expected, or a file its rule refuses.
 */
export async function takeUploads(model: EntityModel, input: Record<string, unknown>): Promise<Map<string, Buffer>> {
  const rules = fileRules(model);
  const files = new Map<string, Buffer>();
  for (const [field, value] of Object.entries(input)) {
    const rule = rules[field];
    if (!isUploadedFile(value)) {
      if (rule?.path) throw fieldError(field, `${model.props[field]?.title ?? field} must be an uploaded file`);
      continue;
    }
    if (!rule) throw fieldError(field, `${model.props[field]?.title ?? field} must be a text field, not a file`);
    // Bounded by the rule's maxBytes, which the upload stream enforced before anything was kept.
    const data = await readFile(value.path);
    let accepted: unknown;
    try {
      accepted = checkUpload(rule, model.props[field]?.title ?? field, { filename: value.filename, data });
    } catch (error) {
      throw onField(error, field);
    }
    if (rule.path) {
      files.set(field, accepted as Buffer);
      delete input[field];
    } else {
      input[rule.into ?? field] = accepted;
      if ((rule.into ?? field) !== field) delete input[field];
    }
  }
  return files;
}

/** The path under DATA_DIR a template names for a record; `{field}` values must be plain names. */
export function storagePath(template: string, record: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, field: string) => {
    const value = String(record[field] ?? '');
    if (!/^[A-Za-z0-9_-]+$/.test(value)) throw fieldError(field, `${field}: must be letters, digits, - or _ to name its files`);
    return value;
  });
}

/**
 * The files of one write. place() checks where each upload goes and stages its bytes; apply(), the last step
 * of the write's transaction, puts them where the row names them, keeping each file it replaces as a backup,
 * with the moves in a journal and the transaction in a marker row (server/crud/file-journal.ts). remove()
 * marks the files of a deleted record. commit() runs after the database commit (backups and removed files
 * go); discard() after a failure (the moves are undone).
 */
export class FileStaging {
  private readonly journal: Journal = { id: randomBytes(12).toString('hex'), moves: [] };
  private journalPath: string | undefined;
  private readonly ready: { temp: string; target: string }[] = [];
  private readonly removals: string[] = [];
  private readonly unlocks: (() => void)[] = [];
  constructor(private readonly engine: Pick<Engine, 'dataDir' | 'db'>) {}

  /** Stages each upload for its template path for `record` and returns the record values (URL paths). */
  async place(model: EntityModel, files: Map<string, Buffer>, record: Record<string, unknown>): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    const rules = fileRules(model);
    if (files.size) await mkdir(join(this.engine.dataDir, STAGING), { recursive: true });
    for (const [field, data] of files) {
      const urlPath = `/${storagePath(rules[field].path!, record)}`;
      const target = localPath(this.engine.dataDir, urlPath);
      if (!target) throw badRequest(`${field}: cannot be stored at ${urlPath}`);
      this.unlocks.push(await lockPath(target));
      const temp = stagingPath(this.engine.dataDir, '.new');
      this.ready.push({ temp, target });
      await writeDurably(temp, data);
      values[field] = urlPath;
    }
    return values;
  }

  /** Puts the staged files in place: call it last in the write's transaction, right before the commit. */
  async apply(trx: Kysely<any>): Promise<void> {
    if (!this.ready.length) return;
    for (const { target } of this.ready) {
      this.journal.moves.push({ target, backup: (await exists(target)) ? stagingPath(this.engine.dataDir, '.old') : null });
    }
    this.journalPath = stagingPath(this.engine.dataDir, '.journal');
    await writeDurably(this.journalPath, JSON.stringify(this.journal));
    await trx.insertInto(FILE_WRITES_TABLE).values({ id: this.journal.id, createdAt: new Date().toISOString() }).execute();
    for (const [i, { temp, target }] of this.ready.entries()) {
      const { backup } = this.journal.moves[i];
      await mkdir(dirname(target), { recursive: true });
      if (backup) await rename(target, backup);
      await rename(temp, target);
    }
  }

  /** Marks the stored files of `record`, which this write deletes, for removal after the commit. */
  async remove(model: EntityModel, record: Record<string, unknown>): Promise<void> {
    for (const field of storedFileFields(model)) {
      const value = record[field];
      const full = typeof value === 'string' ? localPath(this.engine.dataDir, value) : undefined;
      if (!full) continue;
      this.unlocks.push(await lockPath(full));
      this.removals.push(full);
    }
  }

  /** Never fails: the write has committed, and what a failure here leaves behind is cleared at the next start. */
  async commit(): Promise<void> {
    try {
      for (const { backup } of this.journal.moves) if (backup) await rm(backup, { force: true });
      for (const file of this.removals) {
        await rm(file, { force: true });
        await pruneEmptyFolders(file, join(this.engine.dataDir, relative(this.engine.dataDir, file).split(sep)[0]));
      }
      if (this.journalPath) await rm(this.journalPath, { force: true });
    } catch (error) {
      console.error(`files of a committed write not tidied up (the next start will): ${(error as Error).message}`);
    } finally {
      // Before the marker's delete: SQLite's one connection may be held by a write waiting for these paths.
      this.release();
    }
    // Best effort: a marker whose journal is gone means nothing, and the next start removes it.
    if (this.journalPath) await this.engine.db.deleteFrom(FILE_WRITES_TABLE).where('id', '=', this.journal.id).execute().catch(() => {});
  }

  async discard(): Promise<void> {
    try {
      for (const { target, backup } of [...this.journal.moves].reverse()) {
        if (backup === null) await rm(target, { force: true });
        else await rename(backup, target).catch(() => {});
      }
      await Promise.all(this.ready.map(({ temp }) => rm(temp, { force: true })));
      if (this.journalPath) await rm(this.journalPath, { force: true });
    } finally {
      this.release();
    }
  }

  private release() {
    for (const unlock of this.unlocks.splice(0)) unlock();
  }
}

/** Runs a write with its files: they are in place when it commits and as they were when it fails. */
export async function withFiles<T>(engine: Pick<Engine, 'dataDir' | 'db'>, run: (staging: FileStaging) => Promise<T>): Promise<T> {
  const staging = new FileStaging(engine);
  let result: T;
  try {
    result = await run(staging);
  } catch (error) {
    await staging.discard();
    throw error;
  }
  await staging.commit();
  return result;
}
