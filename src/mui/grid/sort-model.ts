// Sorting by a column header is the same view state as the list's "Sort by" select: the URL's sort and order.
// The grid names its columns col0, col1, ... (a manifest field may hold dots); these map between the two.
import type { GridSortModel } from '@mui/x-data-grid';

export interface ListSort {
  by: string | null;
  order: 'asc' | 'desc';
}

/**
 * The grid's sort model of a list sort: the first column showing the sorted field, or none.
 * @example toSortModel(['id', 'name'], { by: 'name', order: 'desc' }) // [{ field: 'col1', sort: 'desc' }]
 */
export function toSortModel(columnFields: string[], sort: ListSort): GridSortModel {
  const index = sort.by ? columnFields.indexOf(sort.by) : -1;
  return index < 0 ? [] : [{ field: `col${index}`, sort: sort.order }];
}

/**
 * The list sort a header click asks for: the clicked column's field and direction; an empty model (the third
 * click) clears the sort. Columns that are not sortable in the manifest are ignored.
 * @example fromSortModel([{ field: 'col1', sort: 'asc' }], ['id', 'name'], ['name']) // { by: 'name', order: 'asc' }
 */
export function fromSortModel(model: GridSortModel, columnFields: string[], sortable: readonly string[]): ListSort {
  const first = model[0];
  const field = first ? columnFields[Number(first.field.replace(/^col/, ''))] : undefined;
  if (!first || !first.sort || !field || !sortable.includes(field)) return { by: null, order: 'asc' };
  return { by: field, order: first.sort };
}
