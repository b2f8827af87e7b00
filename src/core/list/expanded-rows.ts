// Which rows of a list show their details, kept outside React state: a toggle notifies that row's pieces (and the
// grid's row heights) only, where a state change would re-render the whole list screen around them.

export type RowId = string | number;

/**
 * The open details rows of one list screen, as a store for `useSyncExternalStore`; iterating gives the open ids
 * in the order they were opened.
 * @example const rows = new ExpandedRows(); rows.toggle(4); rows.has(4) // true
 */
export class ExpandedRows implements Iterable<RowId> {
  private readonly ids = new Set<RowId>();
  private readonly listeners = new Set<() => void>();

  has = (id: RowId): boolean => this.ids.has(id);

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** Opens a closed row, closes an open one. */
  toggle = (id: RowId): void => {
    if (!this.ids.delete(id)) this.ids.add(id);
    for (const listener of this.listeners) listener();
  };

  [Symbol.iterator](): Iterator<RowId> {
    return this.ids.values();
  }
}
