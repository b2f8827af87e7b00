// Column widths from what the columns hold: each column without a declared width gets at least the width of
// its header and of its longest value on the page (capped), so values are not cut while the screen has room,
// and the grid scrolls sideways rather than cutting when it has not.
import { getPath } from '../../../kernel/manifest/fields';
import { formatValue } from './format-value';
import type { ColumnDecl, FieldSchema } from '../../../kernel/manifest/types';

/** Narrowest and widest a column sizes itself to; wider values are cut with the full text on hover. */
export const MIN_COLUMN = 90;
export const MAX_COLUMN = 520;
/** Cell padding, both sides, plus a little air. */
const PADDING = 28;
/** Rows looked at: enough for the page on screen, cheap for a page of 500. */
const SAMPLE = 200;

/** Widths of the built-in cells that do not show their value as text. */
const FIXED: Record<string, number> = { toggle: 90, boolean: 90, image: 130, json: 200, lookup: 200 };

export type TextWidth = (text: string, bold?: boolean) => number;

/** An estimate of text width in the theme's 14px font, for where no canvas can measure (jsdom). */
export const estimateWidth: TextWidth = (text, bold) => Math.ceil(text.length * (bold ? 8 : 7.3));

/** The text a text cell shows for a row: the prefix field, then the value, cut at `truncate`. */
function cellText(row: Record<string, unknown>, column: ColumnDecl, schema: FieldSchema | undefined): string {
  const prefix = column.prefixField ? formatValue(row[column.prefixField]) : '';
  const full = [prefix, formatValue(getPath(row, column.field), schema)].filter(Boolean).join(' ');
  return column.truncate && full.length > column.truncate ? `${full.slice(0, column.truncate)}…` : full;
}

/**
 * The minimum width of a column for these rows: header and longest value, within MIN_COLUMN..MAX_COLUMN.
 * @example contentWidth({ field: 'name', label: 'Name' }, 'text', schema, rows, estimateWidth) // e.g. 212
 */
export function contentWidth(column: ColumnDecl, cell: string, schema: FieldSchema | undefined, rows: Record<string, unknown>[], measure: TextWidth): number {
  const header = measure(column.label ?? schema?.title ?? column.field, true) + PADDING;
  let widest = FIXED[cell] ?? 0;
  if (!(cell in FIXED)) {
    for (const row of rows.slice(0, SAMPLE)) widest = Math.max(widest, measure(cellText(row, column, schema)));
    if (cell === 'copy') widest += 34;
  }
  return Math.min(MAX_COLUMN, Math.max(MIN_COLUMN, header, widest + PADDING));
}
