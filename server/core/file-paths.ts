// Where stored and staged files live under DATA_DIR: the paths the uploads, the writes with files
// (server/crud/files.ts) and the crash recovery (server/crud/file-journal.ts) all use. It imports none of
// them, so they need not import each other for a path.
import { randomBytes } from 'node:crypto';
import { join, resolve, sep } from 'node:path';
import type { FileRule } from '../../kernel/manifest/types.ts';
import type { EntityModel } from '../model/model.ts';

/** The folder under DATA_DIR where uploads and the files of a write wait, and the writes' journals are kept. */
export const STAGING = '.staging';

/**
 * A name in the staging folder, prefixed with the writing process's id: a process that starts while another
 * one on the same DATA_DIR is writing leaves that one's files alone. (Processes sharing a DATA_DIR run on
 * one host.)
 */
export function stagingPath(dataDir: string, suffix: string): string {
  return join(dataDir, STAGING, `${process.pid}-${randomBytes(12).toString('hex')}${suffix}`);
}

export const fileRules = (model: EntityModel): Record<string, FileRule> => model.manifest.storage?.files ?? {};

/** Fields whose upload is kept as a file at `path` (JSON uploads parsed into the record are not). */
export function storedFileFields(model: EntityModel): Set<string> {
  return new Set(Object.entries(fileRules(model)).filter(([, rule]) => rule.path).map(([field]) => field));
}

/** Absolute path of a stored URL path under `dataDir` (or its `folder`); undefined for dot segments or backslashes. */
export function localPath(dataDir: string, urlPath: string, folder = ''): string | undefined {
  const parts = urlPath.split('/').filter(Boolean);
  if (parts.some((p) => p.startsWith('.') || p.includes('\\') || p.includes('\0'))) return undefined;
  const root = resolve(dataDir, folder);
  const full = resolve(dataDir, ...parts);
  return full.startsWith(root + sep) ? full : undefined;
}
