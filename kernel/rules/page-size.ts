// The page-size rule, one for the server's list calls and the panel's list screens and selects: how many rows a
// page has when the caller names no size, and the most a caller may ask for (the meta-schema's bounds of
// `list.defaultPageSize` and `list.pageSizes` are the same). A lookup for a select asks for the most.
import type { ListDecl } from '../manifest/types.ts';

/** Rows of a page when neither the call nor the manifest names a size. */
export const DEFAULT_PAGE_SIZE = 20;
/** The largest page a list call accepts. */
export const MAX_PAGE_SIZE = 1000;

/**
 * A list's page size when the caller names none: the manifest's `defaultPageSize`, else the first size its
 * selector offers, else DEFAULT_PAGE_SIZE.
 * @example defaultPageSize({ pageSizes: [50, 100] }) // 50
 */
export function defaultPageSize(list: Pick<ListDecl, 'defaultPageSize' | 'pageSizes'> | undefined): number {
  return list?.defaultPageSize ?? list?.pageSizes?.[0] ?? DEFAULT_PAGE_SIZE;
}
