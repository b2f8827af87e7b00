import type { Manifest } from './types';
import { validateManifests } from './validate';
import { indexManifests, type ManifestFile, type ManifestSet } from './manifest-set';

export type { ManifestFile, ManifestSet };

/** Validates the entity files and indexes them; throws the validator's ManifestError naming file and JSON path. */
export function loadManifests(files: ManifestFile[]): ManifestSet {
  const all: Manifest[] = validateManifests(files);
  return indexManifests(all, files);
}
