import { onIdle } from '../core/idle';

/**
 * Calls `done` at the first frame where `root` holds an element matching `selector`, or at the first after
 * `giveUpMs`; answers how to stop watching. For what is drawn unseen ahead of its use (rehearsal.tsx,
 * RippleWarmUp.tsx): the render that draws it can come frames later on a busy machine.
 * @example const unwatch = whenDrawn(host, '.MuiDataGrid-row', 3000, drop)
 */
export function whenDrawn(root: ParentNode, selector: string, giveUpMs: number, done: () => void): () => void {
  const giveUp = performance.now() + giveUpMs;
  let frame = 0;
  const watch = () => {
    if (root.querySelector(selector) || performance.now() > giveUp) done();
    else frame = requestAnimationFrame(watch);
  };
  frame = requestAnimationFrame(watch);
  return () => cancelAnimationFrame(frame);
}

/** A node for what is drawn unseen in the page itself: an 8 px box, hidden and never hit (RippleWarmUp, DetailsWarmUp). */
export const UNSEEN_BOX = { position: 'fixed', top: 0, left: 0, width: 8, height: 8, overflow: 'hidden', visibility: 'hidden', pointerEvents: 'none' } as const;

/** What counts as the user doing something: the warm-ups below give way to it. */
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Runs `work` once the user has given no input (a press, a key, a wheel turn, a touch) for `quietMs` and the
 * browser is idle, for what is drawn ahead of its use and must never compete with the user: the next input stops
 * the work it started (`work` answers how, or null when it has nothing to do) and the wait begins again. `work`
 * calls `finished` once its result is drawn; then nothing more is watched. Answers how to give up.
 * @example const cancel = whenQuiet(1000, (finished) => drawUnseen({ …, onDrawn: finished }, <Form … />))
 */
export function whenQuiet(quietMs: number, work: (finished: () => void) => (() => void) | null): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelIdle = () => {};
  let stopWork: (() => void) | null = null;
  let over = false;
  const wait = () => {
    clearTimeout(timer);
    cancelIdle();
    timer = setTimeout(() => (cancelIdle = onIdle(start, quietMs)), quietMs);
  };
  const start = () => {
    if (over) return;
    stopWork = work(finished);
    if (!stopWork) giveUp();
  };
  const onInput = () => {
    stopWork?.();
    stopWork = null;
    wait();
  };
  function finished() {
    stopWork = null;
    giveUp();
  }
  function giveUp() {
    over = true;
    clearTimeout(timer);
    cancelIdle();
    for (const type of INPUT_EVENTS) removeEventListener(type, onInput, true);
  }
  for (const type of INPUT_EVENTS) addEventListener(type, onInput, { capture: true, passive: true });
  wait();
  return () => {
    giveUp();
    stopWork?.();
    stopWork = null;
  };
}
