// The change feed: after a write has committed, the engine announces which entity it touched, so caches built
// from the tables (the device lookup's snapshot, live lists) know when to refresh. Listeners never see a
// change that rolled back, and a failing listener cannot fail the write that caused it.
export interface Change {
  /** The entity whose table the write touched (`combination`); a custom handler names every entity it writes. */
  entity: string;
  /** The call that wrote, e.g. /v1/admin/combination/add. */
  path: string;
  /** Set when another server process made the write (server/plugins/change-bridge.ts relayed it). */
  remote?: boolean;
  /** The record the write answered with, when it was one (absent: a bulk write, a job, another process's write). */
  ids?: number[];
  /** The e-mail of the staff member whose call wrote (absent: a device, a job). */
  by?: string | null;
  /** When the write committed (ISO). */
  at?: string;
}

export interface ChangeFeed {
  /** Calls `listener` after every committed write; returns the function that stops it. */
  on(listener: (change: Change) => void): () => void;
  emit(change: Change): void;
}

/** @example const feed = createChangeFeed(); feed.on((c) => c.entity === 'combination' && rebuild()); */
export function createChangeFeed(): ChangeFeed {
  const listeners = new Set<(change: Change) => void>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(change) {
      for (const listener of listeners) {
        try {
          listener(change);
        } catch (error) {
          console.error(`change listener failed for ${change.entity}:`, error);
        }
      }
    },
  };
}
