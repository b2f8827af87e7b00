import { createStore } from '../store';

export interface Notice {
  id: number;
  severity: 'success' | 'error' | 'info' | 'warning';
  title?: string;
  text: string;
  /** A second line under the text, e.g. what a bulk delete kept. */
  detail?: string;
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
  notices.set((list) => list.filter((n) => n.id !== id));
}
