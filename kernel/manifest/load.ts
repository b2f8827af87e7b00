import type { Manifest } from './types.ts';
import { validateManifests, type RolesSource } from './validate.ts';
import { indexManifests, type ManifestFile, type ManifestSet } from './manifest-set.ts';

export type { ManifestFile, ManifestSet };

/** Validates the entity files and indexes them; throws the validator's ManifestError naming file and JSON path. */
export function loadManifests(files: ManifestFile[], roles?: RolesSource): ManifestSet {
  const all: Manifest[] = validateManifests(files, roles);
  return indexManifests(all, files);
}
