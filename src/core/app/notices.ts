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
  notices.set((list) => [...list.filter((n) => keyOf(n) !== key), { ...notice, key, id }].slice(-NOTICES_SHOWN));
  return id;
}

export function dismiss(id: number): void {
  notices.set((list) => list.filter((n) => n.id !== id));
}
