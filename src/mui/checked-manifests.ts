// The bundled manifests, their registry names checked: a chunk of its own, which Boot loads (Panel.manifests).
import type { ManifestSet } from '../../kernel/manifest/manifest-set';
import type { NamesPart } from '../../kernel/manifest/names';
import { bundledManifests } from '../core/manifest/bundled';
import { checkRegistryNames } from '../registry/check';

/** The bundled manifests; throws, naming file, JSON path and the known names, on a name no registry knows. */
export function checkedManifests(appNames: NamesPart): ManifestSet {
  const manifests = bundledManifests();
  checkRegistryNames(manifests, appNames);
  return manifests;
}
