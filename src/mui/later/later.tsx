// Stand-ins for MUI modules that a list's first paint never draws (vite.config.ts laterModules swaps them in for
// every importer, the data grid's bindings included): the real module loads on the first render that needs it,
// or ahead once the first rows are drawn (preloadLaterModules), so it is not among the bytes before them.
import { lazy, Suspense, type ComponentProps, type ComponentType, type ReactNode } from 'react';

const preloads: (() => Promise<unknown>)[] = [];

export interface LaterOptions<P> {
  /** Props with which the real component draws nothing (a closed popper): such a render draws nothing at once. */
  drawsNothing?: (props: P) => boolean;
  /** What stands in its place until it is here (default nothing). */
  fallback?: (props: P) => ReactNode;
}

/**
 * A component whose code loads on demand. Until it is here, a render suspends inside its own boundary (showing
 * `fallback`), never the screen around it; once loaded, it draws the real component directly.
 * Its `preload` fetches the module ahead.
 * @example export default later(() => import('@mui/material/Popper'), { drawsNothing: (p) => !p.open && !p.keepMounted })
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- MUI's components are generic and overloaded: any component fits
export function later<C extends ComponentType<any>>(load: () => Promise<{ default: C }>, { drawsNothing, fallback }: LaterOptions<ComponentProps<C>> = {}): C & { preload: () => Promise<unknown> } {
  let Loaded: C | null = null;
  let pending: Promise<unknown> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (m) => (Loaded = m.default),
      (e: unknown) => {
        pending = null;
        throw e;
      },
    ));
  preloads.push(preload);
  const Suspending = lazy(() => preload().then(() => ({ default: Loaded! })));
  // React 19 hands `ref` over as a prop: spreading the props forwards it.
  function Later(props: ComponentProps<C>) {
    if (Loaded) return <Loaded {...props} />;
    if (drawsNothing?.(props)) return null;
    return (
      <Suspense fallback={fallback?.(props) ?? null}>
        <Suspending {...props} />
      </Suspense>
    );
  }
  return Object.assign(Later, { preload }) as unknown as C & { preload: () => Promise<unknown> };
}

/** Fetches every stand-in's module (once the first rows are drawn); a failure is left to the first render that needs it. */
export function preloadLaterModules(): void {
  for (const preload of preloads) void preload().catch(() => undefined);
}
