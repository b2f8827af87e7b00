// The pipeline list's refresh throttle (SPEC 4, SPEC 9): at most one reload per second, with a delayed reload
// for what arrived in between, and the live store counting each item type it hears.
import { describe, expect, it } from 'vitest';
import { createThrottle, type Clock } from '../../src/core/live/live-refresh';
import { applyBatch, live } from '../../src/core/live/live-store';

function fakeClock() {
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (timer) => void timers.splice(timers.indexOf(timer as (typeof timers)[number]), 1),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(t), 1);
      t.fn();
    }
  };
  return { clock, advance, pending: () => timers.length };
}

describe('the live refresh throttle', () => {
  it('reloads at once for the first item, then once more a second later for a burst of twenty', () => {
    const { clock, advance } = fakeClock();
    const reloads: number[] = [];
    const throttle = createThrottle(() => reloads.push(clock.now()), 1000, clock);
    throttle.trigger();
    for (let i = 0; i < 20; i++) {
      advance(10);
      throttle.trigger();
    }
    expect(reloads).toEqual([0]);
    advance(790);
    expect(reloads).toEqual([0]);
    advance(10);
    expect(reloads).toEqual([0, 1000]);
    advance(5000);
    expect(reloads).toEqual([0, 1000]);
  });

  it('reloads at once again when the last reload is more than a second ago', () => {
    const { clock, advance } = fakeClock();
    let reloads = 0;
    const throttle = createThrottle(() => reloads++, 1000, clock);
    throttle.trigger();
    advance(1500);
    throttle.trigger();
    expect(reloads).toBe(2);
  });

  it('drops the delayed reload of a screen that was closed', () => {
    const { clock, advance, pending } = fakeClock();
    let reloads = 0;
    const throttle = createThrottle(() => reloads++, 1000, clock);
    throttle.trigger();
    throttle.trigger();
    throttle.cancel();
    advance(2000);
    expect(reloads).toBe(1);
    expect(pending()).toBe(0);
  });
});

describe('the live store and pipelines items', () => {
  it('keeps the last pipelines item and counts the items of every type', () => {
    const state = applyBatch(live.get(), [
      { type: 'pipelines', data: { path: '/v1/gitlab/webhook' } },
      { type: 'console', data: 'a line' },
      { type: 'pipelines', data: { path: 'gitlab poller' } },
    ]);
    expect(state.pipelines).toEqual({ path: 'gitlab poller' });
    expect(state.received).toEqual({ pipelines: 2, console: 1 });
    expect(state.console).toEqual(['a line']);
  });
});
