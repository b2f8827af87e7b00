// Loads schemas/*.json (the meta-schema and roles.json aside), validates them and checks every registry name
// they use; mistakes stop the start, all listed at once, each with its file, JSON path and (for a name) the known names.
import { readSchemasDir } from '../kernel/manifest/read-dir.ts';
import { BUILT_IN_NAMES, OVERRIDE_NAMES } from '../kernel/manifest/client-names.ts';
import { checkManifestNames, knownNames, type KnownNames } from '../kernel/manifest/names.ts';
import type { Manifest } from '../kernel/manifest/types.ts';
import { validateManifests } from '../kernel/manifest/validate.ts';
import { SERVER_NAMES } from './actions/names.ts';

/** Every registry name this application knows: client built-ins, overrides and the server's registries. */
export const KNOWN_NAMES: KnownNames = knownNames(BUILT_IN_NAMES, OVERRIDE_NAMES, SERVER_NAMES);

export function loadManifestDir(dir: string, known: KnownNames = KNOWN_NAMES): Manifest[] {
  const { files, roles } = readSchemasDir(dir);
  // The names are checked with the rest, so one start reports every mistake of the folder.
  return validateManifests(files, roles, (manifests) => checkManifestNames(manifests, known));
}
