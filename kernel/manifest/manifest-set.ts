import type { Manifest } from './types.ts';

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
