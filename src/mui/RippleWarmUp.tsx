// A button's first press on a page drew its ripple for the first time: MUI mounts the ripple on that press, emotion
// inserts its styles (keyframes included) and the browser then restyles the whole page. On the Platforms list that
// first press spent ~25 ms more than later ones before the click was handled (trace, issue 14). This draws one
// ripple, unseen, once the first rows are drawn and the browser is idle, so the styles and the code are in before.
// With it goes an empty portal into the page's body: React listens to every event on a portal's container the first
// time one mounts there, ~300 listeners added in 7 ms of a trace, which the first tooltip, menu or dialog paid (on a
// 500-row page the pager's "next page" tooltip opens while the new rows draw).
import MuiTouchRipple, { type TouchRippleActions, type TouchRippleProps } from '@mui/material/ButtonBase/TouchRipple';
import { touchRippleClasses } from '@mui/material/ButtonBase';
import { useEffect, useRef, useState, type ComponentType, type Ref } from 'react';
import { createPortal } from 'react-dom';
import { afterFirstRows } from '../core/app/panel';
import { UNSEEN_BOX, whenDrawn } from './when-drawn';

/** MUI declares it as the render function it wraps; it is the forwardRef component ButtonBase draws. */
const TouchRipple = MuiTouchRipple as unknown as ComponentType<TouchRippleProps & { ref: Ref<TouchRippleActions> }>;

/** Draws nothing a user sees; leaves nothing on the page once its ripple was drawn. */
export function RippleWarmUp() {
  const [drawing, setDrawing] = useState(false);
  const ripple = useRef<TouchRippleActions>(null);
  const host = useRef<HTMLSpanElement>(null);
  useEffect(() => afterFirstRows(() => setDrawing(true)), []);
  useEffect(() => {
    if (!drawing || !host.current) return;
    ripple.current?.pulsate();
    // Dropped once the ripple is in the page (its styles are inserted before it is), a second at most.
    return whenDrawn(host.current, `.${touchRippleClasses.ripple}`, 1000, () => setDrawing(false));
  }, [drawing]);
  if (!drawing) return null;
  return (
    <span ref={host} aria-hidden="true" style={UNSEEN_BOX} data-testid="ripple-warm-up">
      <TouchRipple ref={ripple} center />
      {createPortal(null, document.body)}
    </span>
  );
}
