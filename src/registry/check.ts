import type { ManifestSet } from '../../kernel/manifest/manifest-set';
import { cells } from './cells';
import { filterKinds } from './filters';
import { formOverrides, rowActionOverrides, screenOverrides, toolbarOverrides } from './screens';
import { tones } from './tones';

/**
 * Resolves every registry name the manifests use, so a typo fails at start-up (naming file and JSON path)
 * instead of when someone opens the screen. Form widgets are checked when the form code loads.
 */
export function checkRegistryNames(set: ManifestSet): void {
  for (const m of set.all) {
    const file = set.fileOf(m.entity);
    m.list?.columns?.forEach((c, i) => c.cell && cells.get(c.cell, { file, path: `/list/columns/${i}/cell` }));
    for (const [field, schema] of Object.entries(m.record?.properties ?? {})) {
      if (schema['x-cell']) cells.get(schema['x-cell'], { file, path: `/record/properties/${field}/x-cell` });
    }
    m.list?.filters?.forEach((f, i) => f.widget && filterKinds.get(f.widget, { file, path: `/list/filters/${i}/widget` }));
    m.list?.highlight?.forEach((h, i) => tones.get(h.tone, { file, path: `/list/highlight/${i}/tone` }));
    if (m.screen?.override) screenOverrides.get(m.screen.override, { file, path: '/screen/override' });
    if (m.form?.override) formOverrides.get(m.form.override, { file, path: '/form/override' });
    m.screen?.toolbar?.forEach((n, i) => toolbarOverrides.get(n, { file, path: `/screen/toolbar/${i}` }));
    m.screen?.rowActions?.forEach((n, i) => rowActionOverrides.get(n, { file, path: `/screen/rowActions/${i}` }));
    for (const [name, action] of Object.entries(m.actions)) {
      const o = action.ui?.override;
      if (!o) continue;
      const registry = action.ui?.place === 'row' ? rowActionOverrides : toolbarOverrides;
      registry.get(o, { file, path: `/actions/${name}/ui/override` });
    }
  }
}
