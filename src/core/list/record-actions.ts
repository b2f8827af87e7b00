import { matches } from '../access/access';
import type { ActionDecl, Manifest } from '../manifest/types';

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
  return Object.fromEntries(writableFields(manifest).filter((f) => values[f] !== undefined).map((f) => [f, values[f]]));
}

/**
 * An update call's fields: the key from the row, then `writable` + `locked` (when declared) or the form's
 * writable fields. A writeOnly field left empty on edit is not sent.
 */
export function updatePayload(manifest: Manifest, action: ActionDecl, row: Row, values: Row): Row {
  const props = manifest.record?.properties ?? {};
  const fields = action.writable ? [...action.writable, ...(action.locked ?? [])] : writableFields(manifest);
  const payload: Row = { ...keyParams(row, action), ...versionOf(manifest, row) };
  for (const f of fields) {
    const value = values[f];
    if (value === undefined || (props[f]?.writeOnly && value === '')) continue;
    payload[f] = value;
  }
  return payload;
}

/** The label of a call, for its button and its notices: `ui.label`, else a name for the kind, else `fallback`. */
export function actionLabel(action: ActionDecl, fallback = 'Request'): string {
  if (action.ui?.label) return action.ui.label;
  const byKind: Partial<Record<ActionDecl['kind'], string>> = {
    create: 'Add',
    update: 'Edit',
    destroy: 'Delete',
    destroyAll: 'Delete all',
    destroyByFilter: 'Delete by filter',
  };
  return byKind[action.kind] ?? fallback;
}
