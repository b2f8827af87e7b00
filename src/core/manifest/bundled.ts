// The manifests the panel was built with (the build's manifest-check plugin refused invalid ones).
import { expandManifest } from '../../../kernel/manifest/files';
import type { Manifest } from '../../../kernel/manifest/types';
import { ROLES } from '../../../kernel/roles';
import { indexManifests, type ManifestSet } from '../../../kernel/manifest/manifest-set';

/**
 * The bundled schemas/*.json files (the meta-schema excluded): `@schemas` is the folder the build reads
 * (SCHEMAS_DIR, default schemas/: scripts/build/schemas-folder.ts). The build refuses an invalid manifest (the
 * manifest-check plugin of vite.config.ts), so the panel indexes them without shipping the validator.
 */
export function bundledManifests(): ManifestSet {
  const modules = import.meta.glob<unknown>(['@schemas/*.json', '!@schemas/manifest.schema.json', '!@schemas/roles.json'], { eager: true, import: 'default' });
  const files = Object.entries(modules)
    .map(([path, mod]) => ({ file: `schemas/${path.slice(path.lastIndexOf('/') + 1)}`, json: expandManifest(mod as Manifest, ROLES) as unknown }))
    .sort((a, b) => a.file.localeCompare(b.file));
  return indexManifests(files.map((f) => f.json as Manifest), files);
}
