// Upload fields (storage.files): files are checked before anything is written, staged under DATA_DIR/.staging
// while the database write runs, and moved to their path only once it has committed, so a refused or failed
// write leaves nothing on disk. The record keeps the URL path the file is served at (`/whitelabels/x.png`).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { FileRule } from '../../src/core/manifest/types.ts';
import { badRequest } from '../errors.ts';
import { isUploadedFile } from '../plugins/uploads.ts';
import { checkUpload } from './file-checks.ts';
import type { EntityModel } from './model.ts';

const fileRules = (model: EntityModel): Record<string, FileRule> => model.manifest.storage?.files ?? {};

/** Fields whose upload is kept as a file at `path` (JSON uploads parsed into the record are not). */
export function storedFileFields(model: EntityModel): Set<string> {
  return new Set(Object.entries(fileRules(model)).filter(([, rule]) => rule.path).map(([field]) => field));
}

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
      if (rule?.path) throw badRequest(`${field}: must be an uploaded file`);
      continue;
    }
    if (!rule) throw badRequest(`${field}: must be a text field, not a file`);
    // Bounded by the rule's maxBytes, which the upload stream enforced before anything was kept.
    const accepted = checkUpload(rule, field, { filename: value.filename, data: await readFile(value.path) });
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
    if (!/^[A-Za-z0-9_-]+$/.test(value)) throw badRequest(`${field}: must be letters, digits, - or _ to name its files`);
    return value;
  });
}

/** Absolute path of a stored URL path under `dataDir` (or its `folder`); undefined for dot segments or backslashes. */
export function localPath(dataDir: string, urlPath: string, folder = ''): string | undefined {
  const parts = urlPath.split('/').filter(Boolean);
  if (parts.some((p) => p.startsWith('.') || p.includes('\\') || p.includes('\0'))) return undefined;
  const root = resolve(dataDir, folder);
  const full = resolve(dataDir, ...parts);
  return full.startsWith(root + sep) ? full : undefined;
}

/** Files written for one write: staged first, moved into place by commit(), removed by discard(). */
export class FileStaging {
  private staged: { temp: string; target: string }[] = [];
  constructor(private readonly dataDir: string) {}

  /** Stages each upload at its template path for `record` and returns the record values (URL paths). */
  async place(model: EntityModel, files: Map<string, Buffer>, record: Record<string, unknown>): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    const rules = fileRules(model);
    for (const [field, data] of files) {
      const urlPath = `/${storagePath(rules[field].path!, record)}`;
      const target = localPath(this.dataDir, urlPath);
      if (!target) throw badRequest(`${field}: cannot be stored at ${urlPath}`);
      const temp = join(this.dataDir, '.staging', randomBytes(12).toString('hex'));
      await mkdir(dirname(temp), { recursive: true });
      await writeFile(temp, data);
      this.staged.push({ temp, target });
      values[field] = urlPath;
    }
    return values;
  }

  async commit(): Promise<void> {
    for (const { temp, target } of this.staged) {
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
    }
    this.staged = [];
  }

  async discard(): Promise<void> {
    await Promise.all(this.staged.map(({ temp }) => rm(temp, { force: true })));
    this.staged = [];
  }
}

/** Runs a write with a staging area: its files land only when the write succeeds. */
export async function withFiles<T>(dataDir: string, run: (staging: FileStaging) => Promise<T>): Promise<T> {
  const staging = new FileStaging(dataDir);
  try {
    const result = await run(staging);
    await staging.commit();
    return result;
  } catch (error) {
    await staging.discard();
    throw error;
  }
}

/** Removes the stored files of a deleted record. */
export async function removeStoredFiles(dataDir: string, model: EntityModel, record: Record<string, unknown>): Promise<void> {
  for (const field of storedFileFields(model)) {
    const value = record[field];
    const full = typeof value === 'string' ? localPath(dataDir, value) : undefined;
    if (full) await rm(full, { force: true });
  }
}
