// The browser's idle moments, for work that must not stand in the way of what the user sees (code fetched ahead,
// screens drawn unseen, the live socket after the first rows).

/**
 * Runs `fn` when the browser is next idle, at the latest after `timeout` ms when one is given; a browser without
 * idle callbacks (Safari, jsdom) runs it after `fallbackMs`. Answers how to cancel it.
 * @example const cancel = onIdle(preload, 1000)
 */
export function onIdle(fn: () => void, timeout?: number, fallbackMs = 0): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, timeout === undefined ? undefined : { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, fallbackMs);
  return () => clearTimeout(id);
}
