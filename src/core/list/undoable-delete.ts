// Deletes wait behind an Undo notice (react-admin's undoable mode): the rows leave their list at once, the DELETE is
// sent when the notice closes, and Undo brings them back with nothing sent. A tab closed or left meanwhile still sends
// what it owes: on `pagehide` every waiting delete goes out as a keepalive fetch, which outlives the page.
import { dismiss, notify } from '../app/notices';
import { t } from '../i18n/i18n';
import { createStore } from '../store';

/** How long a delete waits for Undo. */
export const UNDO_MS = 5_000;

type Row = Record<string, unknown>;

interface PendingDelete {
  entity: string;
  /** Whether a row of the entity is one this delete takes (hidden from lists while it waits). */
  takes(row: Row): boolean;
  /** Sends the delete now, as a request that outlives the page. */
  flush(): void;
}

/** The deletes waiting behind their Undo notice. */
export const pendingDeletes = createStore<PendingDelete[]>([]);

/** The rows of `entity` a list still shows: those no waiting delete takes. */
export function withoutPendingDeletes<R extends Row>(entity: string, rows: R[], pending: PendingDelete[]): R[] {
  const mine = pending.filter((p) => p.entity === entity);
  return mine.length ? rows.filter((row) => !mine.some((p) => p.takes(row))) : rows;
}

export interface UndoableDelete {
  entity: string;
  takes(row: Row): boolean;
  /** The notice's words: 'Deleted "Tizen"'. */
  title: string;
  text: string;
  /** Sends the delete (with the panel's write notices and a reload): the notice closed or timed out. */
  commit(): Promise<unknown>;
  /** Sends the delete as a keepalive request (the page is going away; nobody is left to read the answer). */
  sendOnLeave(): void;
}

let undoNotices = 0;

/**
 * Hides the rows, shows the Undo notice and sends the delete when it closes.
 * @example deleteWithUndo({entity: 'platform', takes: (r) => r.id === 3, title: 'Delete', text: 'Deleted "Tizen"', commit, sendOnLeave})
 */
export function deleteWithUndo({ entity, takes, title, text, commit, sendOnLeave }: UndoableDelete): void {
  let settled = false;
  const settle = () => {
    if (settled) return false;
    settled = true;
    clearTimeout(timer);
    return true;
  };
  const show = () => pendingDeletes.set((list) => list.filter((p) => p !== entry));
  const entry: PendingDelete = {
    entity,
    takes,
    flush: () => {
      if (settle()) sendOnLeave();
      show();
    },
  };
  pendingDeletes.set((list) => [...list, entry]);
  const id = notify({
    severity: 'info',
    title,
    text,
    // Its own key: the write notices of another delete (the same title, "Delete request status") would otherwise
    // replace it, and a notice replaced goes as if closed, so this delete would be sent with its Undo still due.
    key: `undo:${++undoNotices}`,
    action: {
      label: t('Undo'),
      run: () => {
        if (!settle()) return;
        show();
        dismiss(id);
      },
    },
    onDismiss: () => {
      // The rows stay hidden until the answer: shown again between the send and the reload, they would blink back.
      if (settle()) void commit().finally(show);
    },
  });
  const timer = setTimeout(() => dismiss(id), UNDO_MS);
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', () => pendingDeletes.get().forEach((p) => p.flush()));
