// Loads schemas/*.json (the meta-schema excluded) and validates them; a bad file stops the start.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ManifestError, validateManifests } from '../src/core/manifest/validate.ts';
import type { Manifest } from '../src/core/manifest/types.ts';

export function loadManifestDir(dir: string): Manifest[] {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.json') && name !== 'manifest.schema.json')
    .sort();
  const files = names.map((name) => {
    const path = join(dir, name);
    const file = relative(process.cwd(), path) || path;
    const text = readFileSync(path, 'utf8');
    try {
      return { file, json: JSON.parse(text) as unknown };
    } catch (error) {
      throw new ManifestError(file, '/', `not valid JSON: ${(error as Error).message}`);
    }
  });
  return validateManifests(files);
}
