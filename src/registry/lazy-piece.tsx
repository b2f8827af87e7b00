// Override pieces whose code loads with the screen that uses them: the screen's route preloads the pieces its
// manifest names (preloadPieces) together with the screen's own code, so a piece never pops in after the screen
// drew, and a screen that names none downloads none.
import { lazy, type ComponentType } from 'react';
import type { Manifest } from '../../kernel/manifest/types';
import { namesUsed } from '../../kernel/manifest/names';
import { rowActionOverrides, screenOverrides, toolbarOverrides } from './screens';
import type { Registry } from './registry';

/** A component whose code can be fetched ahead of its first render. */
export type Preloadable<P> = ComponentType<P> & { preload: () => Promise<void> };

/**
 * A registry entry that loads its code on demand; drawn before preload() finished, it suspends like React.lazy.
 * @example toolbar: { ipImport: lazyPiece(() => import('./ip-import/IpImportButton').then((m) => ({ default: m.IpImportButton }))) }
 */
export function lazyPiece<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  const preload = () => {
    pending ??= load().then(
      (m) => {
        loaded = m.default;
      },
      (e: unknown) => {
        pending = null;
        throw e;
      },
    );
    return pending;
  };
  const Suspending = lazy(() => preload().then(() => ({ default: loaded! })));
  function LazyPiece(props: P) {
    const Loaded = loaded ?? Suspending;
    return <Loaded {...props} />;
  }
  return Object.assign(LazyPiece, { preload });
}

const REGISTRIES: Partial<Record<string, Registry<unknown>>> = {
  'screen override': screenOverrides,
  'toolbar override': toolbarOverrides,
  'row action override': rowActionOverrides,
};

/**
 * Fetches the code of the screen, toolbar and row pieces a manifest names (those made with lazyPiece). A name
 * no registry knows is left to the screen, whose look-up fails loudly with file and path.
 */
export function preloadPieces(manifest: Manifest): Promise<unknown> {
  const loads = namesUsed(manifest).flatMap(({ kind, name, path }) => {
    const registry = REGISTRIES[kind];
    const piece = registry?.has(name) ? (registry.get(name, { file: `schemas/${manifest.entity}.json`, path }) as Partial<Preloadable<object>>) : undefined;
    return piece?.preload ? [piece.preload()] : [];
  });
  return Promise.all(loads);
}
