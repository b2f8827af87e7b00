// The indexes a list needs (issue 14): one behind every sortable and filterable own column, with `id` after it, so
// ORDER BY column, id (both ascending or both descending: the index is read backwards) and the equality filters
// read only the rows of the page. A sort by a relation's field (whitelabel.name) is served by (foreign key, id): the
// list walks the few related rows in that field's order and reads each one's rows from it (server/crud/list-page.ts).
import type { EntityModel } from '../model/model.ts';

/** [[column, 'id'], ...] for each sortable or filterable own column of the model's list (and its default order). */
export function listIndexes(model: EntityModel): string[][] {
  const list = model.manifest.list ?? {};
  const fields = new Set<string>([
    ...(list.sortable ?? []),
    ...(list.filters ?? []).map((f) => f.field),
    ...(list.defaultOrder ? [list.defaultOrder.field] : []),
  ]);
  const out: string[][] = [];
  for (const field of fields) {
    if (field === 'id' || field.includes('.') || !model.hasColumn(field) || model.secrets.has(field)) continue;
    out.push([field, 'id']);
  }
  for (const relation of model.manifest.relations ?? []) {
    const sorted = (list.sortable ?? []).some((f) => f.startsWith(`${relation.name}.`));
    if (sorted && model.hasColumn(relation.field) && !fields.has(relation.field)) out.push([relation.field, 'id']);
  }
  return out;
}
