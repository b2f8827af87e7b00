// The code behind the login (the shell, the entity screen, the application's overrides): loaded on demand by the
// routes, and fetched ahead while the login screen waits for the user, so the click that logs in only waits for
// the server. A screen whose code is already here draws at once instead of suspending: a Suspense fallback shown
// for a moment makes React hold the content that follows it ~300 ms (DESIGN.md section 6).
import { homeScreen } from '../core/access/access';
import type { Manifest, Role } from '../../kernel/manifest/types';
import { onIdle } from '../core/idle';
import { overridesReady } from '../registry/installed';
import { eagerLazy, type EagerLazy } from './eager-lazy';

/** The screens behind the login draw with the application's overrides installed (they load with the shell). */
export const Shell = eagerLazy<object>(() => Promise.all([import('./Shell'), overridesReady()]).then(([shell]) => shell));
export const loadEntityScreen = () => import('./EntityScreen');
/** The code every screen behind the login draws with: the shell (with the overrides) and the entity screen. */
const loadPanelCode = () => Promise.all([Shell.preload(), loadEntityScreen()]);

/**
 * Fetches the shell, the entity screen, the overrides and what `load` loads (the manifests) once the login screen is
 * drawn and the browser is idle (nothing the login screen needs waits for them), then hands over to `rehearse`
 * (which answers how to stop it). A failure is ignored: the routes (and the login) load them again when needed.
 * The returned function stops both.
 */
export function prefetchPanel(load: () => Promise<unknown>, rehearse?: () => Promise<() => void>): () => void {
  let stopped = false;
  let stopRehearsal = () => {};
  const run = () =>
    void Promise.all([loadPanelCode(), load()])
      .then(() => (stopped || !rehearse ? undefined : rehearse()))
      .then((stop) => {
        if (stop) stopRehearsal = stop;
        if (stopped) stopRehearsal();
      })
      .catch(() => undefined);
  const cancel = onIdle(run, 1000, 50);
  return () => {
    stopped = true;
    cancel();
    stopRehearsal();
  };
}

/**
 * The code every screen behind the login draws with (the shell, the entity screen, the overrides), asked for at the
 * login click: the server takes a while to check the password (scrypt), and a click that came before the login
 * screen had fetched it ahead (a password manager, a quick typist) fetched it only once the login answered, on the way
 * to the first rows. Already here or on its way, nothing is fetched again; a failure is left to the routes.
 */
export function preloadPanelCode(): void {
  void loadPanelCode().catch(() => undefined);
}

/**
 * Each manifest's screen: the engine's screen code and the override pieces the manifest names, fetched together;
 * drawn at once when they are already here (the login screen fetched the screen code ahead).
 */
const screenOf = new Map<string, EagerLazy<{ manifest: Manifest }>>();
export function screenFor(manifest: Manifest): EagerLazy<{ manifest: Manifest }> {
  let Screen = screenOf.get(manifest.entity);
  if (!Screen) {
    // (The pieces' loader comes with the overrides' registry, in the panel's code: not among the login screen's bytes.)
    Screen = eagerLazy(async () => (await Promise.all([loadEntityScreen(), import('../registry/lazy-piece').then((m) => m.preloadPieces(manifest))]))[0]);
    screenOf.set(manifest.entity, Screen);
  }
  return Screen;
}

/**
 * The shell and the role's home screen, ready to draw: the login opens the session once they are (and the home
 * list's first page is here), so nothing suspends when it opens. A suspended route drew a blank frame between the
 * login screen and the panel, and React then held the panel back ~300 ms (DESIGN.md section 6).
 */
export function preloadHomeScreen(manifests: readonly Manifest[], role: Role): Promise<unknown> {
  const home = homeScreen(manifests, role);
  return Promise.all([Shell.preload(), home && screenFor(home).preload()]);
}
