import { matches } from '../access/can-call';
import { countNoun, pluralNoun, recordLabelField } from '../../../kernel/manifest/fields';
import type { ActionDecl, FieldSchema, Manifest } from '../../../kernel/manifest/types';
import { formatNumber, language, t } from '../i18n/i18n';

type Row = Record<string, unknown>;

/** keyParams({id: 3, name: 'x'}, destroy) -> {id: 3}: the `key` fields of the action (default id). */
export function keyParams(row: Row, action: ActionDecl): Row {
  return Object.fromEntries((action.key ?? ['id']).map((k) => [k, row[k]]));
}

/** The refuseWhen message when the server would refuse this row (the button is disabled with it), else null. */
export function refusal(row: Row, action: ActionDecl): string | null {
  return action.refuseWhen && matches(row, action.refuseWhen) ? action.refuseWhen.message : null;
}

/**
 * The version an edit or toggle is made from: the row's `updatedAt` when the entity declares one. The server
 * refuses the call with 409 when the record changed since (docs/manifests.md, "No lost update").
 * @example versionOf(platformManifest, row) // {updatedAt: '2025-05-01T10:00:00.000Z'}
 */
export function versionOf(manifest: Manifest, row: Row | null | undefined): Row {
  const version = row?.updatedAt;
  return manifest.record?.properties.updatedAt && typeof version === 'string' ? { updatedAt: version } : {};
}

function writableFields(manifest: Manifest): string[] {
  const props = manifest.record?.properties ?? {};
  return (manifest.form?.fields ?? []).filter((f) => props[f] && !props[f].readOnly);
}

/** A create call's fields: the form's writable fields that hold a value. */
export function createPayload(manifest: Manifest, values: Row): Row {
  return Object.fromEntries(writableFields(manifest).filter((f) => values[f] !== undefined && values[f] !== null).map((f) => [f, values[f]]));
}

const mayBeNull = (schema: FieldSchema | undefined) => Array.isArray(schema?.type) && schema.type.includes('null');

/**
 * An update call's fields: the key from the row, then `writable` + `locked` (when declared) or the form's
 * writable fields. A writeOnly field left empty on edit is not sent; a field the user emptied that may be empty
 * is sent as null, so the stored value goes (a field left out would keep it).
 */
export function updatePayload(manifest: Manifest, action: ActionDecl, row: Row, values: Row): Row {
  const props = manifest.record?.properties ?? {};
  const fields = action.writable ? [...action.writable, ...(action.locked ?? [])] : writableFields(manifest);
  const payload: Row = { ...keyParams(row, action), ...versionOf(manifest, row) };
  for (const f of fields) {
    const value = values[f];
    const empty = value === undefined || value === null || value === '';
    if (empty && mayBeNull(props[f]) && !manifest.storage?.files?.[f]) {
      if (row[f] !== undefined && row[f] !== null) payload[f] = null;
      continue;
    }
    if (value === undefined || (props[f]?.writeOnly && value === '')) continue;
    payload[f] = value;
  }
  return payload;
}

/** What names a record to a person: its label field ('Tizen'), else its id ('#12'). */
export function recordName(manifest: Manifest, row: Row): string {
  const field = recordLabelField(manifest);
  const value = row[field];
  return field === 'id' || value === undefined || value === null || value === '' ? `#${String(row.id)}` : String(value);
}

/** The line under a row's delete question that names what goes: 'Record: "Tizen"'. */
export function deletedRecordLine(manifest: Manifest, row: Row): string {
  return t('Record: "{name}"', { name: recordName(manifest, row) });
}

/** The label of a call, for its button and its notices: `ui.label`, else a name for the kind, else `fallback`. */
export function actionLabel(action: ActionDecl, fallback = t('Request')): string {
  if (action.ui?.label) return action.ui.label;
  const byKind: Partial<Record<ActionDecl['kind'], string>> = {
    create: t('Add'),
    update: t('Edit'),
    destroy: t('Delete'),
    destroyAll: t('Delete all'),
    destroyByFilter: t('Delete by filter'),
  };
  return byKind[action.kind] ?? fallback;
}

/** What destroyAll and destroyByFilter answer: how many went, and which rows other records still use. */
export interface BulkDeleteAnswer {
  count: number;
  kept?: { count: number; by: string[]; records: { id: number; label: string }[] };
}

/**
 * The notice line of a bulk delete: "Deleted 12 builds; kept 3 used by combinations: a, b, c".
 * `manifestOf` finds the manifests of the entities that use the kept rows, to name them.
 */
export function bulkDeleteText(manifest: Manifest, answer: unknown, manifestOf: (entity: string) => Manifest | undefined): string | undefined {
  const { count, kept } = (answer ?? {}) as Partial<BulkDeleteAnswer>;
  if (typeof count !== 'number') return undefined;
  const deleted = t('Deleted {what}', { what: countNoun(manifest, count), count: formatNumber(count) });
  if (!kept?.count) return deleted;
  const users = kept.by.map((entity) => {
    const other = manifestOf(entity);
    // English makes the plural from the noun; another language names them by the screen's title.
    return other ? (language.get() === 'en' ? pluralNoun(other) : other.title) : entity;
  });
  const more = kept.count > kept.records.length ? t(' and {n} more', { n: kept.count - kept.records.length }) : '';
  return t('{deleted}; kept {kept} used by {users}: {records}{more}', { deleted, kept: kept.count, users: users.join(t(' and ')), records: kept.records.map((r) => r.label).join(', '), more });
}
