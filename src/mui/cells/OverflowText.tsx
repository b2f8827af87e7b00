import type { ReactNode } from 'react';

/**
 * One line of text cut with an ellipsis when its column is too narrow; when it is cut, hovering shows it in
 * full (the title is set on hover, from the measured overflow, so uncut text gets no redundant tooltip).
 */
export function OverflowText({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <span
      data-overflow-text=""
      style={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }}
      onMouseEnter={(e) => {
        const el = e.currentTarget;
        if (el.scrollWidth > el.clientWidth) el.title = text;
        else el.removeAttribute('title');
      }}
    >
      {children ?? text}
    </span>
  );
}
