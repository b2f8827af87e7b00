// What the panel draws ahead of its use, never seen nor hit, so that the real drawing runs code the browser has
// compiled already and finds its styles inserted (rehearsal.tsx: the home lists behind the login; FormWarmUp.tsx:
// a list's form). It draws in a React root of its own, with a panel whose data provider refuses every call and an
// SWR cache of its own, and is dropped once drawn.
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { Component, startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { SWRConfig } from 'swr';
import { PanelContext, type Panel } from '../core/app/panel';
import type { DataProvider } from '../core/http/data-provider';
import { whenDrawn } from './when-drawn';

const refuse = () => Promise.reject(new Error('What is drawn unseen calls nothing'));
const QUIET: DataProvider = { request: refuse, call: refuse, list: refuse, download: refuse };
const noop = () => undefined;

/** A piece that fails unseen draws nothing: the screen shows its error when it is really opened. */
class Quiet extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

export interface UnseenDrawing {
  panel: Panel;
  /** The theme, or one made for the unseen node (a dialog's portal kept inside it). */
  theme: Theme | ((host: HTMLElement) => Theme);
  /** What counts as drawn: a selector matched inside the unseen node. */
  drawn: string;
  /** Dropped anyway this long after it started. */
  giveUpMs: number;
  /** Called once it was drawn (or given up) and dropped. */
  onDrawn?: () => void;
}

/**
 * Draws `content` unseen, in a transition (input that comes meanwhile goes first), and drops it once `drawn` is in
 * the page; answers how to drop it sooner.
 * @example const stop = drawUnseen({ panel, theme, drawn: '.MuiDataGrid-row', giveUpMs: 3000 }, <ListView … />)
 */
export function drawUnseen({ panel, theme, drawn, giveUpMs, onDrawn }: UnseenDrawing, content: ReactNode): () => void {
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  // Nothing in it takes focus or a click, whatever it draws.
  host.inert = true;
  // Laid out at the window's size (a grid draws rows once it has measured itself), never seen nor hit.
  Object.assign(host.style, { position: 'fixed', inset: '0', visibility: 'hidden', pointerEvents: 'none', overflow: 'hidden', contain: 'strict', zIndex: '-1' });
  document.body.appendChild(host);
  const root = createRoot(host, { onCaughtError: noop, onUncaughtError: noop, onRecoverableError: noop });
  const quietPanel: Panel = { ...panel, provider: QUIET };
  startTransition(() =>
    root.render(
      <Quiet>
        <ThemeProvider theme={typeof theme === 'function' ? theme(host) : theme}>
          <PanelContext.Provider value={quietPanel}>
            <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false, revalidateOnFocus: false }}>{content}</SWRConfig>
          </PanelContext.Provider>
        </ThemeProvider>
      </Quiet>,
    ),
  );
  let dropped = false;
  const drop = () => {
    if (dropped) return;
    dropped = true;
    unwatch();
    root.unmount();
    host.remove();
  };
  const unwatch = whenDrawn(host, drawn, giveUpMs, () => {
    drop();
    onDrawn?.();
  });
  return drop;
}
