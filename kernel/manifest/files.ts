// Which files of a schemas/ folder are entity manifests, and the in-memory step every reader of them takes
// (server start, build, panel): lists declared elsewhere ("x-enum": "roles") are filled in.
import type { Manifest } from './types.ts';

/** The files of schemas/ that are not entity manifests. */
export const NOT_ENTITY_FILES: readonly string[] = ['manifest.schema.json', 'roles.json'];

/** isEntityFile('platform.json') === true; isEntityFile('roles.json') === false */
export const isEntityFile = (name: string) => name.endsWith('.json') && !NOT_ENTITY_FILES.includes(name);

/** A copy of the manifest JSON with every `"x-enum": "roles"` field given `enum: [the role names]`. */
export function expandManifest<T = Manifest>(json: T, roleNames: readonly string[]): T {
  const m = json as { record?: { properties?: Record<string, Record<string, unknown>> } } | null;
  const props = m?.record?.properties;
  if (!props || typeof props !== 'object') return json;
  let changed = false;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, field] of Object.entries(props)) {
    if (field && typeof field === 'object' && field['x-enum'] === 'roles') {
      out[name] = { ...field, enum: [...roleNames] };
      changed = true;
    } else out[name] = field;
  }
  return changed ? ({ ...m, record: { ...m!.record, properties: out } } as T) : json;
}
