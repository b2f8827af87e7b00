// Node only (the panel never imports it): reads a schemas/ folder — entity manifests, roles.json — for the
// server start, the build's checks and the tests, and validates it with the kernel's validator.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import declaredRoles from '../../schemas/roles.json' with { type: 'json' };
import { isEntityFile } from './files.ts';
import type { Manifest } from './types.ts';
import { ManifestError } from './error.ts';
import { validateManifests, type RolesSource } from './validate.ts';

export interface SchemasDir {
  /** The entity manifests as parsed JSON, sorted by file name; `file` is relative to the working directory. */
  files: { file: string; json: unknown }[];
  /** The folder's roles.json (this application's when the folder has none). */
  roles: RolesSource;
}

const shown = (path: string) => relative(process.cwd(), path) || path;

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    throw new ManifestError(shown(path), '/', `not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads a schemas folder without validating it; a file that is not JSON throws a ManifestError naming it. */
export function readSchemasDir(dir: string): SchemasDir {
  const files = readdirSync(dir)
    .filter(isEntityFile)
    .sort()
    .map((name) => ({ file: shown(join(dir, name)), json: readJson(join(dir, name)) }));
  const rolesPath = join(dir, 'roles.json');
  const roles = existsSync(rolesPath) ? { file: shown(rolesPath), json: readJson(rolesPath) } : { file: 'schemas/roles.json', json: declaredRoles };
  return { files, roles };
}

/** Reads and validates a schemas folder; its mistakes throw one ManifestError naming file and JSON path of each. */
export function loadManifestDir(dir: string): Manifest[] {
  const { files, roles } = readSchemasDir(dir);
  return validateManifests(files, roles);
}
