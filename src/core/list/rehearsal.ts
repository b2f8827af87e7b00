// A list screen's controller for a rehearsal: the screen drawn once, hidden, before anyone uses it (while the login
// screen waits for the user), so its first real drawing runs code the browser has already compiled and styles
// already inserted. Its rows are made up from the manifest; it fetches nothing and every change is a no-op.
import { fieldSchema } from '../../../kernel/manifest/fields';
import type { Manifest, Role } from '../../../kernel/manifest/types';
import type { ListContextValue } from './list-context';
import { parseListQuery, toApiParams } from './list-query';
import { ExpandedRows } from './expanded-rows';
import { hasFormOf, listCallsOf, type ListController, type Row } from './use-list-controller';

/** A made-up value of a column, of the type its schema gives (so each kind of cell is drawn). */
function sampleValue(manifest: Manifest, field: string, i: number): unknown {
  const schema = fieldSchema(manifest, field);
  if (!schema) return `${field} ${i}`;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[i % schema.enum.length];
  const type = Array.isArray(schema.type) ? schema.type.find((each) => each !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return i;
  if (type === 'boolean') return i % 2 === 0;
  if (schema.format === 'date-time') return new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
  if (type === 'array') return [];
  if (type === 'object') return {};
  return `${field} ${i}`;
}

/**
 * `count` made-up rows holding every listed column.
 * @example sampleRows(platformManifest, 2) // [{ id: 1, name: 'name 1', ... }, { id: 2, ... }]
 */
export function sampleRows(manifest: Manifest, count: number): Row[] {
  const fields = (manifest.list?.columns ?? []).map((c) => c.field);
  return Array.from({ length: count }, (_, k) => {
    const row: Row = { id: k + 1 };
    for (const field of fields) {
      // A relation's column (`platform.name`) reads a nested record.
      const path = field.split('.');
      let at = row;
      for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Row;
      at[path[path.length - 1]] = sampleValue(manifest, field, k + 1);
    }
    return row;
  });
}

const nothing = () => undefined;

/** The controller a rehearsal of `manifest`'s list screen draws for `role`: one page of made-up rows. */
export function rehearsalController(manifest: Manifest, file: string, role: Role, rows: Row[]): ListController {
  const query = parseListQuery(new URLSearchParams(), manifest.list);
  const context: ListContextValue = { manifest, file, role, callParams: {}, appliedFilters: {}, draftFilters: {}, applyFilters: nothing, reload: nothing };
  const expanded = new ExpandedRows();
  return {
    manifest, file, role, email: '', query, setQuery: nothing, routeParams: {}, callParams: {}, apiParams: toApiParams(query),
    ...listCallsOf(manifest, role), hasForm: hasFormOf(manifest),
    data: { rows, count: rows.length }, rows, refused: false, isLoading: false, isValidating: false, filtered: false, heading: manifest.title,
    reload: nothing, draft: {}, setDraft: nothing, applyFilters: nothing, clearFilters: nothing, setPage: nothing, setPageSize: nothing, setSort: nothing,
    expanded, toggleDetails: expanded.toggle, modal: null, openForm: nothing, closeModal: nothing, context,
  };
}
