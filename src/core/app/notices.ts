import { createStore } from '../store';

export interface Notice {
  id: number;
  severity: 'success' | 'error' | 'info' | 'warning';
  title?: string;
  text: string;
  /** A second line under the text, e.g. what a bulk delete kept. */
  detail?: string;
  /**
   * What the notice is about; a new notice with the same key replaces the shown one instead of piling up under it.
   * Default: its title (a request's "{action} request status", so its Success replaces its earlier Error), else its text.
   */
  key?: string;
  /** A button in the notice (Undo): the notice stays until the button or its owner dismisses it. */
  action?: { label: string; run(): void };
  /** Called once when the notice goes, however it goes (closed, timed out, replaced). */
  onDismiss?(): void;
}

/** At most this many notices of different keys are kept; an older one goes when a newer one comes. */
export const NOTICES_SHOWN = 3;

let nextId = 1;
export const notices = createStore<Notice[]>([]);

const keyOf = (notice: Omit<Notice, 'id'>) => notice.key ?? notice.title ?? notice.text;

/**
 * Shows a notice, replacing the one of the same key (its timer starts again), at most NOTICES_SHOWN at a time.
 * @example notify({severity: 'success', title: 'Add request status', text: 'Success'})
 */
export function notify(notice: Omit<Notice, 'id'>): number {
  const id = nextId++;
  const key = keyOf(notice);
  const before = notices.get();
  const after = [...before.filter((n) => keyOf(n) !== key), { ...notice, key, id }].slice(-NOTICES_SHOWN);
  notices.set(after);
  // A replaced or crowded-out notice goes as if closed: an Undo notice's delete is then sent, not forgotten.
  before.filter((n) => !after.includes(n)).forEach((n) => n.onDismiss?.());
  return id;
}

export function dismiss(id: number): void {
  const gone = notices.get().find((n) => n.id === id);
  notices.set((list) => list.filter((n) => n.id !== id));
  gone?.onDismiss?.();
}
