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

/** The last build processing errors of one whitelabel (the "Last build processing errors" panel keeps one per whitelabel). */
export interface WlErrors {
  whitelabel: string;
  errors: unknown[];
}

const whitelabelOf = (item: unknown) => (item && typeof item === 'object' && 'whitelabel' in item ? String((item as { whitelabel: unknown }).whitelabel) : '?');

/**
 * Merges a buildsErrors item into the held errors, grouped by whitelabel. A list (a reload or status update of every
 * whitelabel) replaces them all; `{whitelabel, errors}` (a reload for one whitelabel) replaces that whitelabel's only,
 * so the others' errors stay until their own reload. Whitelabels without errors are dropped.
 * @example mergeBuildErrors([{whitelabel: 'a', errors: [e1]}, {whitelabel: 'b', errors: [e2]}], {whitelabel: 'a', errors: []}) // [{whitelabel: 'b', errors: [e2]}]
 */
export function mergeBuildErrors(current: WlErrors[], incoming: unknown): WlErrors[] {
  const merged = new Map<string, unknown[]>();
  const scoped = incoming && typeof incoming === 'object' && !Array.isArray(incoming) && 'errors' in incoming && 'whitelabel' in incoming;
  if (scoped) {
    for (const group of current) merged.set(group.whitelabel, group.errors);
    const { whitelabel, errors } = incoming as { whitelabel: unknown; errors: unknown };
    merged.set(String(whitelabel), Array.isArray(errors) ? errors : []);
  } else {
    const items = Array.isArray(incoming) ? incoming : incoming === null || incoming === undefined ? [] : [incoming];
    for (const item of items) merged.set(whitelabelOf(item), [...(merged.get(whitelabelOf(item)) ?? []), item]);
  }
  return [...merged].filter(([, errors]) => errors.length > 0).map(([whitelabel, errors]) => ({ whitelabel, errors }));
}
