// The panel's localStorage, never throwing: storage a browser turned off (a private window, a policy) or that is full
// would otherwise stop what only wanted to remember something (a login, a list's view, the theme). What cannot be
// stored then lasts for this visit.

/** The stored text of `key`, or null when there is none or storage cannot be read. */
export function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Stores `value` under `key`; null removes it. */
export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Turned off or full: kept for this visit only. An older value must not outlive it (a full storage keeping the
    // previous login's token would sign the next visit in as that user).
    try {
      localStorage.removeItem(key);
    } catch {
      // Turned off: nothing is kept either.
    }
  }
}
