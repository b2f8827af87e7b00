import type { FieldSchema, Manifest } from './types.ts';

/** getPath({user: {email: 'a@b'}}, 'user.email') === 'a@b' */
export function getPath(row: unknown, path: string): unknown {
  let value: unknown = row;
  for (const part of path.split('.')) {
    if (value === null || value === undefined || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The schema of a record field, a compose field (`user.email` -> userEmail) or undefined for relation fields. */
export function fieldSchema(manifest: Manifest, path: string): FieldSchema | undefined {
  const props = manifest.record?.properties ?? {};
  if (props[path]) return props[path];
  const [head, tail] = path.split('.', 2);
  const own = tail && manifest.compose?.[head]?.[tail];
  return own ? props[own] : undefined;
}

/** The label of a field: the list column label, else the record title, else the field name. */
export function fieldLabel(manifest: Manifest, path: string): string {
  const column = manifest.list?.columns?.find((c) => c.field === path);
  return column?.label ?? fieldSchema(manifest, path)?.title ?? path;
}

/** Every field a details row lists: the record's readable fields, then relation and compose outputs. */
export function detailFields(manifest: Manifest): string[] {
  const props = manifest.record?.properties ?? {};
  const composed = new Set(Object.values(manifest.compose ?? {}).flatMap((m) => Object.values(m)));
  const own = Object.entries(props)
    .filter(([name, schema]) => !schema.writeOnly && !composed.has(name))
    .map(([name]) => name);
  const relations = (manifest.relations ?? []).flatMap((r) => (r.show ?? ['name']).map((f) => `${r.name}.${f}`));
  const compose = Object.entries(manifest.compose ?? {}).flatMap(([name, m]) => Object.keys(m).map((f) => `${name}.${f}`));
  return [...own, ...relations, ...compose];
}

/**
 * One record of a manifest in words, for titles: its `noun`, else the title made singular:
 * recordNoun({title: 'Tester IP addresses'}) === 'tester IP address'. The first letter is lowered unless the
 * word is an acronym ('WL config').
 */
export function recordNoun(manifest: Manifest): string {
  if (manifest.noun) return manifest.noun;
  const title = manifest.title;
  const singular = /sses$/.test(title) ? title.slice(0, -2) : /ies$/.test(title) ? `${title.slice(0, -3)}y` : title.replace(/s$/, '');
  return /^[A-Z][a-z]/.test(singular) ? singular[0].toLowerCase() + singular.slice(1) : singular;
}

/** The field that names a record in lookups and messages: `recordLabel`, else `name` when declared, else `id`. */
export function recordLabelField(manifest: Manifest): string {
  if (manifest.recordLabel) return manifest.recordLabel;
  return manifest.record?.properties.name ? 'name' : 'id';
}

const pluralWord = (word: string) =>
  /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(word) ? `${word}es` : `${word}s`;

/** Several records in words: pluralNoun(build) === 'builds', 'app version on test' -> 'app versions on test'. */
export function pluralNoun(manifest: Manifest): string {
  const one = recordNoun(manifest);
  const split = one.search(/ (on|of|for|in) /);
  const head = split < 0 ? one : one.slice(0, split);
  const tail = split < 0 ? '' : one.slice(split);
  return head.replace(/(\S+)$/, (word) => pluralWord(word)) + tail;
}

/** countNoun(build, 1) === '1 build', countNoun(build, 3) === '3 builds'. */
export function countNoun(manifest: Manifest, count: number): string {
  return `${count} ${count === 1 ? recordNoun(manifest) : pluralNoun(manifest)}`;
}
