// Every registry name a manifest uses, checked against the names the application knows — at build
// (vite.config.ts), at server start (server/manifests.ts) and in tests — so a typo names its file, JSON path and
// the known names instead of blanking a screen. The lists come from names-only modules (no React, no MUI):
// src/registry/names.ts, overrides/names.ts and server/actions/names.ts; tests keep them equal to the registries.
import type { Manifest } from './types.ts';
import { ManifestError, problemCollector } from './error.ts';

export interface KnownNames {
  /** Form widgets of `form.ui.<field>.widget`. */
  widget: readonly string[];
  /** Cells of `list.columns[].cell`. */
  cell: readonly string[];
  /** Filter kinds of `list.filters[].widget`. */
  'filter kind': readonly string[];
  /** Row tones of `list.highlight[].tone`. */
  tone: readonly string[];
  'screen override': readonly string[];
  'form override': readonly string[];
  'toolbar override': readonly string[];
  'row action override': readonly string[];
  /** Custom handlers of `actions.*.handler`. */
  handler: readonly string[];
  /** Record checks of `actions.*.check`. */
  check: readonly string[];
  /** Destroy hooks of `actions.*.before`. */
  'before hook': readonly string[];
  /** Value sources of `actions.*.forRole.<role>.<field>`. */
  'value source': readonly string[];
}

/** One part of KnownNames, as each names-only module exports it. */
export type NamesPart = Partial<Record<keyof KnownNames, readonly string[]>>;

/** Joins the names-only modules' lists (a name listed by an override and a built-in counts once). */
export function knownNames(...parts: NamesPart[]): KnownNames {
  const kinds: (keyof KnownNames)[] = ['widget', 'cell', 'filter kind', 'tone', 'screen override', 'form override', 'toolbar override', 'row action override', 'handler', 'check', 'before hook', 'value source'];
  return Object.fromEntries(kinds.map((k) => [k, [...new Set(parts.flatMap((p) => p[k] ?? []))]])) as unknown as KnownNames;
}

/** The names a manifest uses, each with its kind and JSON path. */
export function namesUsed(m: Manifest): { kind: keyof KnownNames; name: string; path: string }[] {
  const used: { kind: keyof KnownNames; name: string; path: string }[] = [];
  const add = (kind: keyof KnownNames, name: string | undefined, path: string) => {
    if (name !== undefined) used.push({ kind, name, path });
  };
  m.list?.columns?.forEach((c, i) => add('cell', c.cell, `/list/columns/${i}/cell`));
  for (const [field, schema] of Object.entries(m.record?.properties ?? {})) add('cell', schema['x-cell'], `/record/properties/${field}/x-cell`);
  m.list?.filters?.forEach((f, i) => add('filter kind', f.widget, `/list/filters/${i}/widget`));
  m.list?.highlight?.forEach((h, i) => add('tone', h.tone, `/list/highlight/${i}/tone`));
  for (const [field, ui] of Object.entries(m.form?.ui ?? {})) add('widget', ui.widget, `/form/ui/${field}/widget`);
  add('form override', m.form?.override, '/form/override');
  add('screen override', m.screen?.override, '/screen/override');
  m.screen?.toolbar?.forEach((n, i) => add('toolbar override', n, `/screen/toolbar/${i}`));
  m.screen?.rowActions?.forEach((n, i) => add('row action override', n, `/screen/rowActions/${i}`));
  for (const [name, a] of Object.entries(m.actions)) {
    const at = `/actions/${name}`;
    if (a.ui?.override)add(a.ui.place === 'row' ? 'row action override' : 'toolbar override', a.ui.override, `${at}/ui/override`);
   add('handler', a.handler, `${at}/handler`);
   add('check', a.check, `${at}/check`);
   add('before hook', a.before, `${at}/before`);
    for (const [role, fields] of Object.entries(a.forRole ?? {})) {
      for (const [field, source] of Object.entries(fields ?? {}))add('value source', source, `${at}/forRole/${role}/${field}`);
    }
  }
  return used;
}

/**
 * Throws one ManifestError listing every name no registry knows, each as
 * `schemas/goal.json at /list/columns/0/cell: unknown cell "bool" (known: text, boolean, ...)`.
 */
export function checkManifestNames(manifests: { file: string; manifest: Manifest }[], known: KnownNames): void {
  const problems = problemCollector();
  for (const { file, manifest } of manifests) {
    for (const { kind, name, path } of namesUsed(manifest)) {
      if (known[kind].includes(name)) continue;
      problems.run(() => {
        throw new ManifestError(file, path, `unknown ${kind} "${name}" (known: ${known[kind].join(', ') || 'none'})`);
      });
    }
  }
  problems.done();
}
