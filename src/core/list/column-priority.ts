// Which list columns give way when a grid is narrower than its columns (manifest list.columns[].priority): the
// columns a screen is used for (priority 1: its switches and status columns) stay in view without scrolling.

/** The priority of a column that declares none. */
export const DEFAULT_PRIORITY = 3;

export interface FittedColumn {
  /** 1 (never hidden) to 5 (hidden first); undefined = DEFAULT_PRIORITY. */
  priority?: number;
  /** The narrowest the column is drawn (its declared, dragged or content width); 0 for a column the user hid. */
  width: number;
}

/**
 * The indexes of the columns to hide so the others fit in `available` pixels: the highest priority number first, the
 * rightmost first among equals, never a priority-1 column nor one in `kept` (shown again by the user).
 * @example columnsToHide([{priority: 1, width: 300}, {width: 300}, {priority: 5, width: 300}], 650) // Set {2}
 */
export function columnsToHide(columns: readonly FittedColumn[], available: number, kept: ReadonlySet<number> = new Set()): Set<number> {
  const hidden = new Set<number>();
  let total = columns.reduce((sum, c) => sum + c.width, 0);
  const candidates = columns
    .map((c, index) => ({ index, priority: c.priority ?? DEFAULT_PRIORITY, width: c.width }))
    .filter((c) => c.priority > 1 && c.width > 0 && !kept.has(c.index))
    .sort((a, b) => b.priority - a.priority || b.index - a.index);
  for (const c of candidates) {
    if (total <= available) break;
    hidden.add(c.index);
    total -= c.width;
  }
  return hidden;
}
