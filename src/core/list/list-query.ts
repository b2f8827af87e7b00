import type { FilterDecl, ListDecl } from '../../../kernel/manifest/types';
import { defaultPageSize } from '../../../kernel/rules/page-size';

/** The view of a list screen, as the URL holds it: `?page=2&size=50&sort=name&order=desc&name=web`. */
export interface ListQuery {
  /** 1-based, as the API counts. */
  page: number;
  size: number;
  sortBy: string | null;
  sortOrder: 'asc' | 'desc';
  filters: Record<string, string>;
}

const RESERVED = new Set(['page', 'size', 'sort', 'order']);

export function filterParam(filter: FilterDecl): string {
  return filter.param ?? filter.field;
}


/**
 * Reads a list view from URL search params; unknown sort fields and sizes outside the manifest fall back to defaults.
 * @example parseListQuery(new URLSearchParams('page=2&sort=name'), manifest.list)
 */
export function parseListQuery(search: URLSearchParams, list: ListDecl | undefined): ListQuery {
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const sizes = list?.pageSizes ?? [];
  const wanted = Number.parseInt(search.get('size') ?? '', 10);
  const size = sizes.length > 0 && sizes.includes(wanted) ? wanted : defaultPageSize(list);
  const sort = search.get('sort');
  const sortBy = sort && list?.sortable?.includes(sort) ? sort : null;
  const sortOrder = search.get('order') === 'desc' ? 'desc' : 'asc';
  const filters: Record<string, string> = {};
  for (const f of list?.filters ?? []) {
    const value = search.get(filterParam(f));
    if (value) filters[filterParam(f)] = value;
  }
  return { page, size, sortBy, sortOrder, filters };
}

/** The URL form of a view; defaults are left out so the plain route is the default view. */
export function toSearchParams(query: ListQuery, list: ListDecl | undefined): URLSearchParams {
  const search = new URLSearchParams();
  if (query.page > 1) search.set('page', String(query.page));
  if (query.size !== defaultPageSize(list)) search.set('size', String(query.size));
  if (query.sortBy) {
    search.set('sort', query.sortBy);
    if (query.sortOrder === 'desc') search.set('order', 'desc');
  } else if (query.sortOrder === 'desc') search.set('order', 'desc');
  for (const [param, value] of Object.entries(query.filters)) {
    if (value && !RESERVED.has(param)) search.set(param, value);
  }
  return search;
}

/** The API parameters of a view (docs/manifests.md "List parameters"). */
export function toApiParams(query: ListQuery): Record<string, string | number> {
  const params: Record<string, string | number> = { page: query.page, pageSize: query.size };
  if (query.sortBy) {
    params.sortBy = query.sortBy;
    params.sortOrder = query.sortOrder;
  }
  for (const [param, value] of Object.entries(query.filters)) if (value.trim()) params[param] = value.trim();
  return params;
}

export function hasFilter(filters: Record<string, string>): boolean {
  return Object.values(filters).some((v) => v.trim() !== '');
}

/**
 * Whether a row of the list is one the filters select, as the server reads them (server/crud/kinds/filters.ts): every
 * filled filter holds; eq compares the value's text, contains and prefix ignore case. A relation's field is read from
 * its nested object (`maker.name`); a field the row does not carry counts as a match, so a delete by filter hides
 * every row it may take and none it cannot know about stays on screen as if kept.
 * @example rowMatchesFilters([{field: 'name', op: 'contains'}], {name: 'web'}, {name: 'webOS'}) === true
 */
export function rowMatchesFilters(filters: FilterDecl[], values: Record<string, unknown>, row: Record<string, unknown>): boolean {
  return filters.every((filter) => {
    const wanted = values[filterParam(filter)];
    if (wanted === undefined || wanted === null || String(wanted).trim() === '') return true;
    let value: unknown = row;
    for (const part of filter.field.split('.')) {
      if (value === null || typeof value !== 'object' || !(part in value)) return value !== null;
      value = (value as Record<string, unknown>)[part];
    }
    if (value === null || value === undefined) return false;
    const text = String(value);
    const target = String(wanted).trim();
    if (filter.op === 'eq') return text === target;
    const lower = text.toLowerCase();
    return filter.op === 'prefix' ? lower.startsWith(target.toLowerCase()) : lower.includes(target.toLowerCase());
  });
}
