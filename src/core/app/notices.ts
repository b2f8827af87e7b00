import { createStore } from '../store';

export interface Notice {
  id: number;
  severity: 'success' | 'error' | 'info' | 'warning';
  title?: string;
  text: string;
  /** A second line under the text, e.g. what a bulk delete kept. */
  detail?: string;
  /** A button in the notice (Undo): the notice stays until the button or its owner dismisses it. */
  action?: { label: string; run(): void };
  /** Called once when the notice goes, however it goes (closed, timed out, replaced). */
  onDismiss?(): void;
}

let nextId = 1;
export const notices = createStore<Notice[]>([]);

/** notify({severity: 'success', title: 'Add request status', text: 'Success'}) */
export function notify(notice: Omit<Notice, 'id'>): number {
  const id = nextId++;
  notices.set((list) => [...list, { ...notice, id }]);
  return id;
}

export function dismiss(id: number): void {
  const gone = notices.get().find((n) => n.id === id);
  notices.set((list) => list.filter((n) => n.id !== id));
  gone?.onDismiss?.();
}
