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
