// The list screens a login lands on, drawn once, hidden, while the login screen waits for the user: the first real
// drawing after the login then runs code the browser has compiled already and finds the screen's styles inserted.
// Measured cold in Chromium (customer care's App Info): login click to painted rows ~265 ms without it, ~150 ms
// after a rehearsal (issue 14). The rehearsal draws unseen (unseen-root.tsx) with made-up rows, and is dropped as
// soon as a session opens or its grid has drawn rows.
import type { Theme } from '@mui/material/styles';
import { MemoryRouter } from 'react-router';
import { homeScreen, isGenericList, menuFor } from '../core/access/access';
import { onIdle } from '../core/idle';
import type { Panel } from '../core/app/panel';
import { rehearsalController, sampleRows } from '../core/list/rehearsal';
import { session } from '../core/session/session';
import { ROLES, type Manifest, type Role } from '../../kernel/manifest/types';
import { ListView } from './ListScreen';
import { ShellFrame } from './Shell';
import { drawUnseen } from './unseen-root';

/** Rows a rehearsal draws: enough to fill the screen's first view. */
const ROWS = 20;
/** How long a rehearsal waits for its grid's rows before it gives up. */
const GIVE_UP_MS = 3000;

const noop = () => undefined;

/** The generic list screens some role lands on after its login, with that role. */
export function homeListScreens(manifests: readonly Manifest[]): { manifest: Manifest; role: Role }[] {
  return ROLES.flatMap((role) => {
    const manifest = homeScreen(manifests, role);
    return isGenericList(manifest) ? [{ manifest, role }] : [];
  });
}

function drawOne(panel: Panel, theme: Theme, manifest: Manifest, role: Role, done: () => void): () => void {
  const file = panel.manifests.fileOf(manifest.entity);
  const controller = rehearsalController(manifest, file, role, sampleRows(manifest, ROWS));
  return drawUnseen({ panel, theme, drawn: '.MuiDataGrid-row', giveUpMs: GIVE_UP_MS, onDrawn: done },
    <MemoryRouter initialEntries={[manifest.screen!.route]}>
      {/* The login screen has its own language switch (its code is compiled already): the page keeps one. */}
      <ShellFrame menu={menuFor(panel.manifests.all, role)} email="" onLogout={noop} languageSwitch={false}>
        <ListView controller={controller} rehearsal />
      </ShellFrame>
    </MemoryRouter>,
  );
}

/**
 * Rehearses each home list screen in turn, each when the browser is idle; stops (dropping what it drew) when a
 * session opens or the returned function is called.
 */
export function rehearseHomes(panel: Panel, theme: Theme): () => void {
  const queue = homeListScreens(panel.manifests.all);
  let stopCurrent: () => void = noop;
  let cancelIdle: () => void = noop;
  let over = false;
  const stop = () => {
    over = true;
    cancelIdle();
    stopCurrent();
    unsubscribe();
  };
  const unsubscribe = session.subscribe(() => session.get().token && stop());
  const next = () => {
    const item = queue.shift();
    if (over || !item || session.get().token) return stop();
    cancelIdle = onIdle(() => (stopCurrent = drawOne(panel, theme, item.manifest, item.role, next)), 1000);
  };
  next();
  return stop;
}
