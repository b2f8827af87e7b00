// A screen that follows a live item type reloads when such items arrive, throttled (SPEC 4: the pipeline
// list refreshes at most once per second, with a delayed retry), instead of once per message.
import { useSyncExternalStore } from 'react';
import { live } from './live-store';
import { LIVE_REFRESH_MS, useThrottledReload } from './throttle';

export { createThrottle, LIVE_REFRESH_MS, type Clock } from './throttle';

/** How many items of `type` the live socket has delivered; re-renders only when that number changes. */
function useReceived(type: string | undefined): number {
  return useSyncExternalStore(live.subscribe, () => (type ? (live.get().received[type] ?? 0) : 0));
}

/**
 * Calls `reload` (throttled) whenever live items of `type` arrive; nothing when `type` is undefined.
 * @example useLiveRefresh(manifest.screen?.liveRefresh, reload)
 */
export function useLiveRefresh(type: string | undefined, reload: () => void, intervalMs = LIVE_REFRESH_MS): void {
  const count = useReceived(type);
  useThrottledReload(count, reload, intervalMs);
}
