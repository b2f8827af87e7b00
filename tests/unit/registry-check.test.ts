// The start-up check of the panel resolves every registry name the manifests use against the names the engine
// and the application know, before any override code has loaded, and names file, JSON path and the known names.
import { describe, expect, it } from 'vitest';
import { indexManifests } from '../../kernel/manifest/manifest-set';
import type { Manifest } from '../../kernel/manifest/types';
import { OVERRIDE_NAMES } from '../../overrides/names';
import { bundledManifests } from '../../src/core/manifest/bundled';
import { checkRegistryNames } from '../../src/registry/check';

/** The bundled manifests with one of them changed. */
function withChange(entity: string, change: (m: Manifest) => Manifest) {
  const all = bundledManifests().all.map((m) => (m.entity === entity ? change(structuredClone(m)) : m));
  return indexManifests(all, all.map((m) => ({ file: `schemas/${m.entity}.json`, json: m })));
}

describe('the start-up registry check', () => {
  it('accepts the bundled manifests with the application override names', () => {
    expect(() => checkRegistryNames(bundledManifests(), OVERRIDE_NAMES)).not.toThrow();
  });

  it('refuses an unknown cell, naming the file, the path and the known cells', () => {
    const set = withChange('platform', (m) => ({ ...m, list: { ...m.list!, columns: [{ field: 'name', cell: 'bool' }, ...m.list!.columns!.slice(1)] } }));
    expect(() => checkRegistryNames(set, OVERRIDE_NAMES)).toThrow('Unknown cell "bool" in schemas/platform.json at /list/columns/0/cell (known: text, boolean, toggle, json, link, image, copy, lookup, changes)');
  });

  it('refuses an override name the application does not register, though its code is not loaded yet', () => {
    const set = withChange('platform', (m) => ({ ...m, screen: { ...m.screen!, toolbar: ['ipImportt'] } }));
    expect(() => checkRegistryNames(set, OVERRIDE_NAMES)).toThrow('Unknown toolbar override "ipImportt" in schemas/platform.json at /screen/toolbar/0 (known: officeIpBox, ipImport, runPipeline)');
    expect(() => checkRegistryNames(set, {})).toThrow('(known: none)');
  });
});
