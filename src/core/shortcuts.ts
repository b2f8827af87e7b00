// The panel's keyboard shortcuts, headless: which key means what, and where typing must not trigger them. The
// shell's listener (src/mui/KeyboardShortcuts.tsx) runs them against the page and lists them on `?`.
import type { T } from './i18n/i18n';
import { createStore } from './store';

export type ShortcutAction = 'filter' | 'add' | 'submit' | 'help';

export interface ShortcutDecl {
  /** As the help dialog shows it. */
  keys: string;
  /** What it does, in the current language. */
  does: (t: T) => string;
}

/** What the `?` dialog lists, in this order. */
export const SHORTCUTS: ShortcutDecl[] = [
  { keys: '/', does: (t) => t('Go to the first filter of the list') },
  { keys: 'n', does: (t) => t('Add a record (where you may add)') },
  { keys: 'Esc', does: (t) => t('Close the open form, dialog or menu') },
  { keys: 'Ctrl+Enter', does: (t) => t('Submit the open form (OK)') },
  { keys: '?', does: (t) => t('Show these shortcuts') },
];

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** True when the key went to a text field, a select or an editable element. */
  typing: boolean;
  /** True while a modal dialog is open. */
  inDialog: boolean;
}

/**
 * The shortcut a key press means, or null. Letters and `/` are text while the user types, and belong to the
 * dialog while one is open; Ctrl+Enter (Cmd+Enter on a Mac) submits an open form even from a text field.
 * @example shortcutOf({ key: 'n', typing: false, inDialog: false }) === 'add'
 */
export function shortcutOf(e: KeyLike): ShortcutAction | null {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) return e.inDialog ? 'submit' : null;
  if (e.ctrlKey || e.metaKey || e.altKey || e.typing) return null;
  if (e.key === '?') return 'help';
  if (e.inDialog) return null;
  if (e.key === '/') return 'filter';
  if (e.key === 'n' || e.key === 'N') return 'add';
  return null;
}

/** Whether the shortcuts dialog is open. */
export const shortcutsHelp = createStore(false);
export const openShortcutsHelp = () => shortcutsHelp.set(true);
export const closeShortcutsHelp = () => shortcutsHelp.set(false);
