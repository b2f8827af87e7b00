// A tooltip for what a list draws on every row: MUI's Tooltip mounted only while it shows. Mounted for good, it
// renders its popper's hooks on every row and renders once more after mounting to take its child's node.
import Tooltip, { type TooltipProps } from '@mui/material/Tooltip';
import { cloneElement, useEffect, useId, useRef, useState, type ReactElement, type SyntheticEvent } from 'react';

/** MUI's Tooltip defaults: hover or keyboard focus opens after 100 ms, a touch after 700 ms; a touch's tooltip stays 1.5 s. */
const ENTER_DELAY = 100;
const TOUCH_DELAY = 700;
const TOUCH_LEAVE = 1500;
/** As MUI's: within 800 ms of a tooltip closing, the next one opens at once (moving along a row of buttons). */
const NEXT_AT_ONCE = 800;
let lastClosed = -Infinity;

type Handler = ((event: SyntheticEvent<HTMLElement>) => void) | undefined;

/**
 * MUI's Tooltip for a row's button or cell, with its props, look and behaviour: its child is drawn alone (named by
 * a text title, as the Tooltip names it) and the Tooltip is mounted, open and anchored on that child, from the
 * hover, keyboard focus or touch that shows it to its close. The child keeps its node, so focus and clicks stay.
 * @example <LazyTooltip title="Edit"><IconButton aria-label="Edit">…</IconButton></LazyTooltip>
 */
export function LazyTooltip({ children, ...props }: TooltipProps & { children: ReactElement<Record<string, unknown>> }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const id = useId();
  useEffect(() => () => clearTimeout(timer.current), []);
  const after = (ms: number, fn: () => void) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(fn, ms);
  };
  const show = (el: HTMLElement, delay: number) => {
    if (anchor) return clearTimeout(timer.current);
    after(performance.now() - lastClosed < NEXT_AT_ONCE ? 0 : delay, () => setAnchor(el));
  };
  const hide = () => {
    clearTimeout(timer.current);
    if (anchor) lastClosed = performance.now();
    setAnchor(null);
  };
  const own = children.props;
  const chain = (mine: Handler, theirs: unknown): Handler => (event) => {
    (theirs as Handler)?.(event);
    mine!(event);
  };
  const textTitle = typeof props.title === 'string';
  const child = cloneElement(children, {
    // As the Tooltip does: a text title names its child (unless the child names itself), other titles while open.
    'aria-label': textTitle ? props.title : undefined,
    'aria-labelledby': anchor && !textTitle ? id : undefined,
    ...own,
    onMouseOver: chain((e) => show(e.currentTarget, ENTER_DELAY), own.onMouseOver),
    onMouseLeave: chain(hide, own.onMouseLeave),
    onFocus: chain((e) => e.currentTarget.matches(':focus-visible') && show(e.currentTarget, ENTER_DELAY), own.onFocus),
    onBlur: chain(hide, own.onBlur),
    onTouchStart: chain((e) => show(e.currentTarget, TOUCH_DELAY), own.onTouchStart),
    onTouchEnd: chain(() => after(TOUCH_LEAVE, hide), own.onTouchEnd),
  });
  return (
    <>
      {child}
      {anchor && (
        <Tooltip
          {...props}
          id={id}
          open
          onClose={hide}
          slotProps={{ ...props.slotProps, popper: { ...(props.slotProps?.popper as object), anchorEl: anchor } }}
        >
          <span hidden />
        </Tooltip>
      )}
    </>
  );
}
