// What a write changed, for its users-log row: the record's fields before and after, only those that changed
// (creates: after only, deletes: before only), never a secret's or write-only field's value, each value cut
// to a readable size. The handlers hand over the stored record they already read inside the transaction.
import type { EntityModel } from '../model/model.ts';
import { logSafe } from '../plugins/audit.ts';
import type { FieldChange } from '../core/audit-log.ts';

/** One changed field: `before` absent on a create, `after` absent on a delete; neither for a secret (`secret: true`). */
export type { FieldChange };

/** What a handler tells the audit row about its write, filled inside the write's transaction. */
export interface WriteRecord {
  /** The stored record before the write (update, toggle, destroy). */
  before?: Record<string, unknown>;
  /** The stored record after the write (create, update, toggle). */
  after?: Record<string, unknown>;
  /** Secret fields the write set (a password): logged as changed, without a value. */
  secrets?: string[];
  /** A bulk delete: the records it removed, as stored (one users-log row each, up to BULK_ROWS). */
  deleted?: Record<string, unknown>[];
}

/** Longest text of one value kept in the log; longer ones (a CSS path list, a big JSON) are cut with an ellipsis. */
export const MAX_VALUE_TEXT = 1000;
/** Records of one bulk delete that get a users-log row each; beyond, the call's own row says how many more. */
export const BULK_ROWS = 1000;
/** Fields the server maintains itself: a change of them says nothing a reviewer needs. */
const BOOKKEEPING = new Set(['id', 'createdAt', 'updatedAt']);

/** A value as the log keeps it: one visible line (logSafe's escapes) and at most MAX_VALUE_TEXT characters as text. */
function bounded(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'string') return logSafe(value, MAX_VALUE_TEXT);
  if (value === null || typeof value !== 'object') return value;
  const text = JSON.stringify(value);
  const safe = logSafe(text, MAX_VALUE_TEXT);
  // A JSON value stays structured unless it had to be escaped or cut; then its (safe) text stands for it.
  return safe === text ? value : safe;
}

/**
 * The fields whose values may be logged: the record's own readable ones. `readable` already leaves out every
 * `writeOnly` field and every `storage.secrets` field (the password), so no value of theirs can reach the log.
 */
function loggable(model: EntityModel): string[] {
  return model.readable.filter((f) => !BOOKKEEPING.has(f));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The changed fields of one write.
 * @example diffRecord(platforms, { before: {name: 'a', maxVersion: '01.00.00'}, after: {name: 'b', maxVersion: '01.00.00'} })
 *   // [{field: 'name', before: 'a', after: 'b'}]
 */
export function diffRecord(model: EntityModel, write: WriteRecord): FieldChange[] {
  const { before, after } = write;
  const changes: FieldChange[] = [];
  for (const field of loggable(model)) {
    if (before && after) {
      if (!same(before[field], after[field])) changes.push({ field, before: bounded(before[field]), after: bounded(after[field]) });
    } else if (after) {
      if (after[field] !== null && after[field] !== undefined) changes.push({ field, after: bounded(after[field]) });
    } else if (before) {
      if (before[field] !== null && before[field] !== undefined) changes.push({ field, before: bounded(before[field]) });
    }
  }
  for (const field of write.secrets ?? []) changes.push({ field, secret: true });
  return changes;
}

/** Writes the users log needs for one call's write: its own row, plus one per record a bulk delete removed. */
export interface AuditRowPlan {
  entity: string;
  recordId: number | null;
  changes: FieldChange[] | null;
  detail?: string;
}

/**
 * The users-log rows of one committed-to-be write: the call's row (with what changed) and, for a bulk delete, a
 * row per removed record (before values) so a record's history is found by its id.
 */
export function auditRows(model: EntityModel | undefined, entity: string, write: WriteRecord, recordId: number | null, answer: unknown): AuditRowPlan[] {
  const changes = model && (write.before || write.after || write.secrets?.length) ? diffRecord(model, write) : [];
  const rows: AuditRowPlan[] = [{ entity, recordId, changes: changes.length ? changes : null }];
  if (model && write.deleted) {
    const count = Number((answer as { count?: unknown } | null)?.count ?? write.deleted.length);
    if (count > write.deleted.length) rows[0].detail = `deleted ${count} records; the first ${write.deleted.length} have a row each`;
    // The per-record rows first: the call's own row, with the total, then sits on top of the newest-first log.
    const each = write.deleted.map((record) => ({ entity, recordId: Number(record.id), changes: diffRecord(model, { before: record }) }));
    return [...each, ...rows];
  }
  return rows;
}
