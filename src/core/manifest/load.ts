import type { Manifest } from './types';
import { validateManifests } from './validate';

export interface ManifestFile {
  file: string;
  json: unknown;
}

export interface ManifestSet {
  all: Manifest[];
  byEntity: Map<string, Manifest>;
  /** The schemas/ file a manifest came from, for error messages ("schemas/user.json at /form/ui/x/widget"). */
  fileOf(entity: string): string;
}

/** Validates the entity files and indexes them; throws the validator's ManifestError naming file and JSON path. */
export function loadManifests(files: ManifestFile[]): ManifestSet {
  const all = validateManifests(files);
  const fileByEntity = new Map<string, string>();
  for (const { file, json } of files) {
    const entity = (json as { entity?: unknown } | null)?.entity;
    if (typeof entity === 'string') fileByEntity.set(entity, file);
  }
  return {
    all,
    byEntity: new Map(all.map((m) => [m.entity, m])),
    fileOf: (entity) => fileByEntity.get(entity) ?? `schemas/${entity}.json`,
  };
}

/** The bundled schemas/*.json files (the meta-schema excluded), as the build saw them. */
export function bundledManifestFiles(): ManifestFile[] {
  const modules = import.meta.glob<{ default: unknown }>(['/schemas/*.json', '!/schemas/manifest.schema.json'], { eager: true });
  return Object.entries(modules)
    .map(([path, mod]) => ({ file: path.replace(/^\//, ''), json: mod.default }))
    .sort((a, b) => a.file.localeCompare(b.file));
}
