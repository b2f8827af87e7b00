// The indexes a list needs (issue 14): one behind every sortable and filterable own column, with `id` after it, so
// ORDER BY column, id (both ascending or both descending: the index is read backwards) and the equality filters
// read only the rows of the page. A sort by a relation's field (whitelabel.name) is served by (foreign key, id): the
// list walks the few related rows in that field's order and reads each one's rows from it (server/crud/list-page.ts).
// An equality filter combined with a sort (the users of one experiment, `/abtesting/:id`, always filter by their
// experiment) is served by (filter column, sort column, id): the page is the first rows of one range of it, where
// (filter column, id) alone made the database read every row of the filter's value and sort them (5.8 s at 1M rows).
import type { EntityModel } from '../model/model.ts';

/** [[column, 'id'], ...] for each sortable or filterable own column of the model's list (and its default order), and [[filter, sort, 'id'], ...] for each equality filter and sort. */
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
  // Every sort the screen offers under every equality filter it has: its own columns, and a relation's foreign key.
  const equalities = new Set((list.filters ?? []).filter((f) => f.op === 'eq' && !f.field.includes('.') && f.field !== 'id' && model.hasColumn(f.field)).map((f) => f.field));
  const sorts = new Set<string>();
  for (const field of list.sortable ?? []) {
    const relation = field.includes('.') ? (model.manifest.relations ?? []).find((r) => field.startsWith(`${r.name}.`)) : undefined;
    const column = relation ? relation.field : field;
    if (column !== 'id' && model.hasColumn(column) && !model.secrets.has(column)) sorts.add(column);
  }
  for (const filter of equalities) for (const sort of sorts) if (sort !== filter) out.push([filter, sort, 'id']);
  return out;
}
