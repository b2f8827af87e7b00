import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import { useState } from 'react';

const scalarColor = (value: unknown) =>
  typeof value === 'string' ? 'success.dark' : typeof value === 'number' ? 'info.dark' : value === null ? 'text.disabled' : 'secondary.dark';

function Node({ name, value, depth, openDepth }: { name?: string; value: unknown; depth: number; openDepth: number }) {
  const isObject = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth < openDepth);
  const key = name === undefined ? null : (
    <Box component="span" sx={{ color: 'primary.dark', mr: 0.75 }}>
      {name}:
    </Box>
  );
  if (!isObject) {
    return (
      <Box role="treeitem" sx={{ pl: 3, py: 0.125 }}>
        {key}
        <Box component="span" sx={{ color: scalarColor(value), wordBreak: 'break-all' }}>
          {JSON.stringify(value)}
        </Box>
      </Box>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <Box role="treeitem" aria-expanded={open}>
      <Box
        component="button"
        type="button"
        onClick={() => setOpen(!open)}
        sx={{ display: 'flex', alignItems: 'center', border: 0, bgcolor: 'transparent', p: 0, py: 0.125, font: 'inherit', cursor: 'pointer', color: 'inherit' }}
      >
        {open ? <ExpandMore fontSize="small" /> : <ChevronRight fontSize="small" />}
        {key}
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {summary}
        </Box>
      </Box>
      {open && (
        <Box role="group" sx={{ pl: 2, borderLeft: 1, borderColor: 'divider', ml: 1.1 }}>
          {entries.map(([k, v]) => (
            <Node key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} />
          ))}
        </Box>
      )}
    </Box>
  );
}

/** A collapsible tree of a JSON value; levels below `openDepth` start collapsed. */
export function JsonTree({ value, openDepth = 1 }: { value: unknown; openDepth?: number }) {
  return (
    <Box role="tree" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13, lineHeight: 1.6 }}>
      <Node value={value} depth={0} openDepth={openDepth} />
    </Box>
  );
}
