// The "Update statuses" panel's data: the last message of each whitelabel and its history, merged from the
// wlStatuses items the build jobs send, so a job that reports one whitelabel leaves the others in place.

/** Messages kept per whitelabel for the hover history (SPEC 2: all messages on hover), so memory stays flat. */
export const WL_HISTORY_CAP = 50;

export interface WlStatus {
  whitelabel: string;
  /** Oldest first, each stamped with the time it arrived. */
  messages: string[];
}

/**
 * Merges incoming wlStatuses items (`[{whitelabel, messages}]`, or a single item or text) into the held list: each
 * whitelabel's messages are appended to its own history, capped at WL_HISTORY_CAP; others are kept as they were.
 * @example mergeWlStatuses([{whitelabel: 'a', messages: ['09:00:00 1 build reloaded']}], [{whitelabel: 'b', messages: ['2 builds reloaded']}])
 */
export function mergeWlStatuses(current: unknown, incoming: unknown, now = new Date()): WlStatus[] {
  const merged = new Map<string, string[]>();
  for (const item of Array.isArray(current) ? (current as WlStatus[]) : []) {
    if (item && typeof item === 'object' && Array.isArray(item.messages)) merged.set(String(item.whitelabel), item.messages);
  }
  const time = now.toLocaleTimeString('en-GB');
  const items = Array.isArray(incoming) ? incoming : incoming === null || incoming === undefined ? [] : [incoming];
  for (const raw of items) {
    const item = (raw && typeof raw === 'object' ? raw : { message: raw }) as { whitelabel?: unknown; messages?: unknown; message?: unknown };
    const whitelabel = item.whitelabel === undefined ? '?' : String(item.whitelabel);
    const texts = Array.isArray(item.messages) ? item.messages : item.message !== undefined ? [item.message] : [];
    const stamped = texts.map((t) => `${time} ${typeof t === 'string' ? t : JSON.stringify(t)}`);
    merged.set(whitelabel, [...(merged.get(whitelabel) ?? []), ...stamped].slice(-WL_HISTORY_CAP));
  }
  return [...merged].map(([whitelabel, messages]) => ({ whitelabel, messages }));
}
