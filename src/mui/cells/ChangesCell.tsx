// `x-cell: "changes"`: the fields a write changed, one line each as `field: old → new` (a create shows only the
// new value, a delete only the old one, a secret only that it changed), so a reviewer reads what happened.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { CellProps } from '../../registry/override-types';

interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
  secret?: true;
}

const text = (value: unknown) => (value === null || value === undefined ? '∅' : typeof value === 'string' ? value : JSON.stringify(value));

/** changeLine({field: 'name', before: 'a', after: 'b'}) === 'name: a → b' */
export function changeLine(change: FieldChange): string {
  if (change.secret) return `${change.field}: changed (not stored)`;
  if (!('before' in change)) return `${change.field}: ${text(change.after)}`;
  if (!('after' in change)) return `${change.field}: ${text(change.before)} (deleted)`;
  return `${change.field}: ${text(change.before)} → ${text(change.after)}`;
}

export function ChangesCell({ value }: CellProps) {
  const changes = Array.isArray(value) ? (value as FieldChange[]) : [];
  if (!changes.length) return <Typography variant="body2">—</Typography>;
  return (
    <Box component="ul" data-testid="changes" sx={{ m: 0, pl: 2, minWidth: 0 }}>
      {changes.map((change, i) => (
        <Typography key={i} component="li" variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {changeLine(change)}
        </Typography>
      ))}
    </Box>
  );
}
