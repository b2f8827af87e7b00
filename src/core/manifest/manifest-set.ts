import type { Manifest } from './types';

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

/** Indexes manifests that were already validated (by the build, the server or loadManifests). */
export function indexManifests(all: Manifest[], files: ManifestFile[]): ManifestSet {
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

/**
 * The bundled schemas/*.json files (the meta-schema excluded). The build refuses an invalid manifest (the
 * manifest-check plugin of vite.config.ts), so the panel indexes them without shipping the validator.
 */
export function bundledManifests(): ManifestSet {
  const modules = import.meta.glob<{ default: unknown }>(['/schemas/*.json', '!/schemas/manifest.schema.json'], { eager: true });
  const files = Object.entries(modules)
    .map(([path, mod]) => ({ file: path.replace(/^\//, ''), json: mod.default }))
    .sort((a, b) => a.file.localeCompare(b.file));
  return indexManifests(files.map((f) => f.json as Manifest), files);
}
