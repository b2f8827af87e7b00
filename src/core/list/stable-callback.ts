// Callbacks that the list hands to every row (reload, apply filters) must stay one function: a new one each page
// would redraw every row's buttons and cells while the next page is still loading.
import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * One function for the component's life that calls the latest `fn` given (as React's useEffectEvent, but callable
 * from anywhere, render excepted).
 * @example const reload = useStableCallback(() => mutate(key)) // the same `reload` whatever the key
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  }, [fn]);
  return useCallback((...args: A) => latest.current(...args), []);
}
