import type { ManifestSet } from '../../kernel/manifest/manifest-set';
import { namesUsed, type KnownNames, type NamesPart } from '../../kernel/manifest/names';
import { BUILT_IN_NAMES } from './names';
import { RegistryError } from './registry';

/** The kinds of name the panel resolves (handlers, checks, hooks and value sources are the server's). */
const PANEL_KINDS = new Set<keyof KnownNames>(['widget', 'cell', 'filter kind', 'tone', 'screen override', 'form override', 'toolbar override', 'row action override']);

/**
 * Resolves every registry name the manifests use against the engine's built-in names and the application's
 * (its names-only list, overrides/names.ts), so a typo fails at start-up, naming file, JSON path and the known
 * names, before any override code has loaded. tests/unit/registry-names.test.ts keeps those lists equal to the
 * registries.
 * @example checkRegistryNames(bundledManifests(), OVERRIDE_NAMES)
 */
export function checkRegistryNames(set: ManifestSet, appNames: NamesPart): void {
  for (const m of set.all) {
    for (const { kind, name, path } of namesUsed(m)) {
      if (!PANEL_KINDS.has(kind)) continue;
      const known = [...new Set([...((BUILT_IN_NAMES as NamesPart)[kind] ?? []), ...(appNames[kind] ?? [])])];
      if (!known.includes(name)) throw new RegistryError(kind, name, { file: set.fileOf(m.entity), path }, known);
    }
  }
}
