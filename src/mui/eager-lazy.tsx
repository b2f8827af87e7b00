// React.lazy whose code can be fetched ahead, and which stops suspending once it is here (panel-code.tsx's screens,
// the language menu).
import { lazy, type ComponentType } from 'react';

/** A component loaded on demand whose code can be fetched ahead. */
export type EagerLazy<P> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * A component loaded on demand whose later renders, once `load` has answered, draw it directly (no suspending).
 * A failed preload is tried again by the first render that needs it (React.lazy calls `load` only then).
 */
export function eagerLazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): EagerLazy<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (e: unknown) => {
        pending = null;
        throw e;
      },
    ));
  const Suspending = lazy(preload);
  function EagerLazy(props: P) {
    const Loaded = loaded ?? Suspending;
    return <Loaded {...props} />;
  }
  return Object.assign(EagerLazy, { preload });
}
