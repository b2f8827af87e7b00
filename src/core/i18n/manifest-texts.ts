// The texts of the manifests a person reads in the panel (titles, field titles, column and menu labels, button
// labels, confirm questions, notices), and the manifests with those texts in a language. The translation goes
// through the same dictionary as the UI code, by the English wording.
import { recordNoun } from '../../../kernel/manifest/fields';
import type { ManifestSet } from '../../../kernel/manifest/manifest-set';
import type { FieldSchema, Manifest } from '../../../kernel/manifest/types';
import { translate, type Lang } from './i18n';

/** Keys whose string value is shown to staff wherever it appears in a manifest. */
const TEXT_KEYS = new Set(['title', 'label', 'confirm', 'noun', 'help', 'group', 'warningOnEdit', 'message', 'requireFilter', 'heading']);
/** Containers of fields: a `description` inside one is a field's help under the form input; elsewhere it is documentation. */
const FIELD_CONTAINERS = new Set(['properties', 'patternProperties', 'items']);

function isText(key: string, path: string[]): boolean {
  if (TEXT_KEYS.has(key)) return true;
  return key === 'description' && path.some((p) => FIELD_CONTAINERS.has(p));
}

function walk(node: unknown, path: string[], visit: (text: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, String(i)], visit));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // A field named "title" or "label" is a property, not a text: only its inner keys are looked at.
    const container = path.length > 0 && FIELD_CONTAINERS.has(path[path.length - 1]);
    out[key] = typeof value === 'string' && !container && isText(key, path) ? visit(value) : walk(value, [...path, key], visit);
  }
  return out;
}

/** Every text of a manifest a person reads, with the noun its titles use ("Edit build"). */
export function manifestTexts(manifest: Manifest): string[] {
  const texts: string[] = [];
  walk(manifest, [], (text) => (texts.push(text), text));
  texts.push(recordNoun(manifest));
  return texts;
}

/** A manifest with its texts in a language; the noun is made from the English title, then translated. */
export function localizeManifest(manifest: Manifest, lang: Lang): Manifest {
  if (lang === 'en') return manifest;
  const localized = walk(manifest, [], (text) => translate(lang, text)) as Manifest;
  return { ...localized, noun: translate(lang, recordNoun(manifest)) };
}

const cache = new WeakMap<ManifestSet, Map<Lang, ManifestSet>>();

/** The whole set in a language (made once per set and language). */
export function localizeManifests(set: ManifestSet, lang: Lang): ManifestSet {
  if (lang === 'en') return set;
  let byLang = cache.get(set);
  if (!byLang) cache.set(set, (byLang = new Map()));
  let out = byLang.get(lang);
  if (!out) {
    const all = set.all.map((m) => localizeManifest(m, lang));
    out = { all, byEntity: new Map(all.map((m) => [m.entity, m])), fileOf: set.fileOf };
    byLang.set(lang, out);
  }
  return out;
}

const callFields = new WeakMap<ManifestSet, Map<string, Record<string, FieldSchema>>>();

/**
 * The record fields of the entity whose action answers at `path`, titled as the set has them (a refusal names its
 * bad fields by them); undefined for a call no manifest declares (login, the GitLab status).
 * @example fieldsOfCall(localizeManifests(set, 'ru'), '/v1/admin/platform/add')?.name.title // 'Название'
 */
export function fieldsOfCall(set: ManifestSet, path: string): Record<string, FieldSchema> | undefined {
  let byPath = callFields.get(set);
  if (!byPath) {
    byPath = new Map();
    for (const m of set.all) for (const action of Object.values(m.actions ?? {})) if (m.record && !byPath.has(action.path)) byPath.set(action.path, m.record.properties);
    callFields.set(set, byPath);
  }
  return byPath.get(path);
}
