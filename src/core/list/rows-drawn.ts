// A list's first rows in the page, for what must come after them (the live socket's code after a login).

let resolveDrawn = () => {};

/**
 * Starts waiting for the next list to draw its first rows (or its empty state): answers when one has.
 * @example const drawn = nextRowsDrawn(); …; await drawn
 */
export function nextRowsDrawn(): Promise<void> {
  return new Promise<void>((resolve) => (resolveDrawn = resolve));
}

/** Said by a list once its first rows (or its empty state) are in the page. */
export function listRowsDrawn(): void {
  resolveDrawn();
}
