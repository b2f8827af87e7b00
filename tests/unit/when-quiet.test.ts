// whenQuiet (src/mui/when-drawn.ts): what is drawn ahead of its use (a list's form, FormWarmUp.tsx) starts only
// once the user has left the page alone for a while, and gives way to the next press or key.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { whenQuiet } from '../../src/mui/when-drawn';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A work that records its starts and stops, and whose `finished` the test calls. */
function recorder() {
  const log: string[] = [];
  let finish = () => {};
  const work = (finished: () => void) => {
    log.push('start');
    finish = finished;
    return () => log.push('stop');
  };
  return { log, work, finish: () => finish() };
}

test('starts after the quiet time, and each press or key before it begins the wait again', () => {
  const { log, work } = recorder();
  whenQuiet(1000, work);
  vi.advanceTimersByTime(900);
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
  vi.advanceTimersByTime(900);
  document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
  vi.advanceTimersByTime(900);
  expect(log).toEqual([]);
  // Moving the pointer is no input: the wait goes on.
  document.body.dispatchEvent(new Event('pointermove', { bubbles: true }));
  vi.advanceTimersByTime(200);
  expect(log).toEqual(['start']);
});

test('an input stops the work it started and starts it again after the next quiet time; finished ends it', () => {
  const { log, work, finish } = recorder();
  whenQuiet(1000, work);
  vi.advanceTimersByTime(1100);
  window.dispatchEvent(new Event('wheel'));
  expect(log).toEqual(['start', 'stop']);
  vi.advanceTimersByTime(1100);
  expect(log).toEqual(['start', 'stop', 'start']);
  finish();
  // Nothing is watched any more: input neither stops it nor starts it again.
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
  vi.advanceTimersByTime(5000);
  expect(log).toEqual(['start', 'stop', 'start']);
});

test('a work with nothing to do (null) ends the watch, and cancelling stops a started work', () => {
  let calls = 0;
  whenQuiet(1000, () => {
    calls++;
    return null;
  });
  vi.advanceTimersByTime(1100);
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
  vi.advanceTimersByTime(5000);
  expect(calls).toBe(1);

  const { log, work } = recorder();
  const cancel = whenQuiet(1000, work);
  vi.advanceTimersByTime(1100);
  cancel();
  expect(log).toEqual(['start', 'stop']);
  vi.advanceTimersByTime(5000);
  expect(log).toEqual(['start', 'stop']);
});
