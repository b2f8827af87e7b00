// The list screens a login lands on, drawn once, hidden, while the login screen waits for the user: the first real
// drawing after the login then runs code the browser has compiled already and finds the screen's styles inserted.
// Measured cold in Chromium (customer care's App Info): login click to painted rows ~265 ms without it, ~150 ms
// after a rehearsal (issue 14). The rehearsal draws in a detached root of its own with made-up rows: it fetches
// nothing (its panel's data provider refuses every call), keeps its own SWR cache, and is dropped as soon as a
// session opens or its grid has drawn rows.
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { Component, startTransition, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { homeScreen, menuFor } from '../core/access/access';
import { PanelContext, type Panel } from '../core/app/panel';
import type { DataProvider } from '../core/http/data-provider';
import { rehearsalController, sampleRows } from '../core/list/rehearsal';
import { session } from '../core/session/session';
import { ROLES, type Manifest, type Role } from '../../kernel/manifest/types';
import { ListView } from './ListScreen';
import { ShellFrame } from './Shell';
import { whenDrawn } from './when-drawn';

/** Rows a rehearsal draws: enough to fill the screen's first view. */
const ROWS = 20;
/** How long a rehearsal waits for its grid's rows before it gives up. */
const GIVE_UP_MS = 3000;

const refuse = () => Promise.reject(new Error('A rehearsal calls nothing'));
const QUIET: DataProvider = { request: refuse, call: refuse, list: refuse, download: refuse };
const noop = () => undefined;

/** A piece that fails in a rehearsal draws nothing: the screen shows its error when it is really opened. */
class Quiet extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** The generic list screens some role lands on after its login, with that role. */
export function homeListScreens(manifests: readonly Manifest[]): { manifest: Manifest; role: Role }[] {
  return ROLES.flatMap((role) => {
    const manifest = homeScreen(manifests, role);
    return manifest?.list && !manifest.screen!.override ? [{ manifest, role }] : [];
  });
}

function drawOne(panel: Panel, theme: Theme, manifest: Manifest, role: Role, done: () => void): () => void {
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.inert = true;
  // Laid out at the window's size (the grid draws rows once it has measured itself), never seen nor hit.
  Object.assign(host.style, { position: 'fixed', inset: '0', visibility: 'hidden', pointerEvents: 'none', overflow: 'hidden', contain: 'strict', zIndex: '-1' });
  document.body.appendChild(host);
  const root: Root = createRoot(host, { onCaughtError: noop, onUncaughtError: noop, onRecoverableError: noop });
  const quietPanel: Panel = { ...panel, provider: QUIET };
  const file = panel.manifests.fileOf(manifest.entity);
  const controller = rehearsalController(manifest, file, role, sampleRows(manifest, ROWS));
  startTransition(() =>
    root.render(
      <Quiet>
        <ThemeProvider theme={theme}>
          <PanelContext.Provider value={quietPanel}>
            <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false, revalidateOnFocus: false }}>
              <MemoryRouter initialEntries={[manifest.screen!.route]}>
                {/* The login screen has its own language switch (its code is compiled already): the page keeps one. */}
                <ShellFrame menu={menuFor(panel.manifests.all, role)} email="" onLogout={noop} languageSwitch={false}>
                  <ListView controller={controller} rehearsal />
                </ShellFrame>
              </MemoryRouter>
            </SWRConfig>
          </PanelContext.Provider>
        </ThemeProvider>
      </Quiet>,
    ),
  );
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    unwatch();
    root.unmount();
    host.remove();
  };
  const unwatch = whenDrawn(host, '.MuiDataGrid-row', GIVE_UP_MS, () => {
    stop();
    done();
  });
  return stop;
}

/**
 * Rehearses each home list screen in turn, each when the browser is idle; stops (dropping what it drew) when a
 * session opens or the returned function is called.
 */
export function rehearseHomes(panel: Panel, theme: Theme): () => void {
  const queue = homeListScreens(panel.manifests.all);
  let stopCurrent: () => void = noop;
  let idle = 0;
  let over = false;
  const stop = () => {
    over = true;
    cancelIdleCallback(idle);
    stopCurrent();
    unsubscribe();
  };
  const unsubscribe = session.subscribe(() => session.get().token && stop());
  const next = () => {
    const item = queue.shift();
    if (over || !item || session.get().token) return stop();
    idle = requestIdleCallback(() => (stopCurrent = drawOne(panel, theme, item.manifest, item.role, next)), { timeout: 1000 });
  };
  next();
  return stop;
}
