// A list's view (page size, sort, filters) is kept per user and entity in localStorage: leaving a list and coming
// back by the menu (a URL without a view) shows it as it was left; a URL with a view of its own wins.
import { readStored, writeStored } from '../storage';

/** listStateKey('admin@x.io', 'platform') === 'panel.list:admin@x.io:platform' */
export function listStateKey(user: string, entity: string): string {
  return `panel.list:${user}:${entity}`;
}

/** The stored view as URL search text ('size=50&sort=name'), or '' when none. Never throws. */
export function readListState(key: string): string {
  return readStored(key) ?? '';
}

/** Stores the view of `search` without its page (a page number means little on the next visit). */
export function writeListState(key: string, search: URLSearchParams): void {
  const view = new URLSearchParams(search);
  view.delete('page');
  writeStored(key, view.size ? view.toString() : null);
}
