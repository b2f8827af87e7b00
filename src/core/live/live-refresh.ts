// A screen that follows a live item type reloads when such items arrive, throttled (SPEC 4: the pipeline
// list refreshes at most once per second, with a delayed retry), instead of once per message.
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { live } from './live-store';

/** SPEC 9: the pipeline refresh throttle is 1 second. */
export const LIVE_REFRESH_MS = 1000;

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/**
 * Runs `fn` at most once per `intervalMs`: at once when the last run is long enough ago, otherwise once when the
 * interval ends (the delayed retry, which sees everything that arrived in between).
 * @example const t = createThrottle(reload, 1000); t.trigger(); t.trigger(); // reload now, and once more 1 s later
 */
export function createThrottle(fn: () => void, intervalMs: number, clock: Clock = realClock) {
  let last = Number.NEGATIVE_INFINITY;
  let timer: unknown;
  const fire = () => {
    timer = undefined;
    last = clock.now();
    fn();
  };
  return {
    trigger() {
      const wait = last + intervalMs - clock.now();
      if (wait <= 0 && timer === undefined) fire();
      else if (timer === undefined) timer = clock.setTimeout(fire, Math.max(0, wait));
    },
    cancel() {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}

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
  const latest = useRef(reload);
  latest.current = reload;
  const throttle = useMemo(() => createThrottle(() => latest.current(), intervalMs), [intervalMs]);
  useEffect(() => () => throttle.cancel(), [throttle]);
  const seen = useRef(count);
  useEffect(() => {
    if (count === seen.current) return;
    seen.current = count;
    throttle.trigger();
  }, [count, throttle]);
}
