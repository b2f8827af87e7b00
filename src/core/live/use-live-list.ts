// Live lists on the client: the server's "entity changed" items (server/plugins/live-lists.ts) land in a small
// store; an open list of that entity revalidates at most once per second with a trailing reload (keeping its page,
// filters and scroll, which live in the URL and the grid), and an open edit form of a changed record learns who
// changed it. Changes the socket missed while it was not listening arrive at its (re)connect, marked `missed`.
import { useRef, useSyncExternalStore } from 'react';
import { createStore } from '../store';
import { LIVE_REFRESH_MS, useThrottledReload } from './throttle';

export interface EntityChanged {
  entity: string;
  /** Absent: any record of the entity may have changed. */
  ids?: number[];
  by: string | null;
  at: string;
  /** Set on what the socket hears at (re)connect: a change made while it was not listening. */
  missed?: boolean;
}

/** Records remembered per entity, so a form opened on a record a second ago still hears of its change. */
const RECENT_CAP = 200;

export interface EntityChangesState {
  /** How many changes of each entity arrived. */
  counts: Record<string, number>;
  /** How many of them were missed changes, heard at a (re)connect. */
  missed: Record<string, number>;
  /** The last changes, newest last (capped). */
  recent: EntityChanged[];
}

export const entityChanges = createStore<EntityChangesState>({ counts: {}, missed: {}, recent: [] });

/** Applies one `entityChanged` batch from the live socket; anything malformed is ignored. */
export function receiveEntityChanges(batch: unknown): void {
  if (!Array.isArray(batch)) return;
  const items = batch.filter((c): c is EntityChanged => Boolean(c) && typeof (c as EntityChanged).entity === 'string');
  if (!items.length) return;
  entityChanges.set((prev) => {
    const counts = { ...prev.counts };
    const missed = { ...prev.missed };
    for (const c of items) {
      counts[c.entity] = (counts[c.entity] ?? 0) + 1;
      if (c.missed) missed[c.entity] = (missed[c.entity] ?? 0) + 1;
    }
    return { counts, missed, recent: [...prev.recent, ...items].slice(-RECENT_CAP) };
  });
}

export function resetEntityChanges(): void {
  entityChanges.set({ counts: {}, missed: {}, recent: [] });
}

/**
 * Whether the socket has announced changes of `entity` it missed in this session: a page fetched at login, before
 * the socket first connected, may not hold them.
 * @example missedChanges('platform') ? fetchAgain() : useEarlyPage()
 */
export function missedChanges(entity: string): boolean {
  return (entityChanges.get().missed[entity] ?? 0) > 0;
}

export interface LiveListOptions {
  /** Only the changes missed while the socket was not listening: a screen that follows its own live item hears the rest that way. */
  missedOnly?: boolean;
  intervalMs?: number;
}

/**
 * Calls `reload` (throttled to once per second, with a trailing call) whenever a record of `entity` changes;
 * nothing when `entity` is undefined.
 * @example useLiveList(manifest.entity, reload)
 */
export function useLiveList(entity: string | undefined, reload: () => void, { missedOnly = false, intervalMs = LIVE_REFRESH_MS }: LiveListOptions = {}): void {
  const count = useSyncExternalStore(entityChanges.subscribe, () => (entity ? (entityChanges.get()[missedOnly ? 'missed' : 'counts'][entity] ?? 0) : 0));
  useThrottledReload(count, reload, intervalMs);
}

/**
 * The last change of one record that arrived after the hook first ran (the form opened), or null.
 * @example const change = useRecordChange('platform', record?.id); change && `changed by ${change.by}`
 */
export function useRecordChange(entity: string, id: unknown): EntityChanged | null {
  const recent = useSyncExternalStore(entityChanges.subscribe, () => entityChanges.get().recent);
  const start = useRef(recent[recent.length - 1]);
  if (typeof id !== 'number') return null;
  // Only what arrived after the form opened: everything after the item that was newest then (when the cap has
  // dropped that item, everything held is newer).
  const from = start.current ? recent.lastIndexOf(start.current) + 1 : 0;
  for (let i = recent.length - 1; i >= from; i--) {
    const c = recent[i];
    if (c.entity === entity && c.ids?.includes(id)) return c;
  }
  return null;
}
