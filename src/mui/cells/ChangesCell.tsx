// `x-cell: "changes"`: the fields a write changed, one line each as `Field: old → new` (a create shows only the
// new value, a delete only the old one, a secret only that it changed), so a reviewer reads what happened.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { usePanel } from '../../core/app/panel';
import { t } from '../../core/i18n/i18n';
import type { CellProps } from '../../registry/override-types';

interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
  secret?: true;
}

const text = (value: unknown) => (value === null || value === undefined ? '∅' : typeof value === 'string' ? value : JSON.stringify(value));

/** changeLine({field: 'name', before: 'a', after: 'b'}, 'Name') === 'Name: a → b' */
export function changeLine(change: FieldChange, label = change.field): string {
  if (change.secret) return t('{field}: changed (not stored)', { field: label });
  if (!('before' in change)) return `${label}: ${text(change.after)}`;
  if (!('after' in change)) return t('{field}: {before} (deleted)', { field: label, before: text(change.before) });
  return `${label}: ${text(change.before)} → ${text(change.after)}`;
}

/** The changed record's fields by their titles, read from the manifest of the row's `entity`. */
export function ChangesCell({ value, row }: CellProps) {
  const props = usePanel().manifests.byEntity.get(String(row.entity))?.record?.properties ?? {};
  const changes = Array.isArray(value) ? (value as FieldChange[]) : [];
  if (!changes.length) return <Typography variant="body2">—</Typography>;
  return (
    <Box component="ul" data-testid="changes" sx={{ m: 0, pl: 2, minWidth: 0 }}>
      {changes.map((change, i) => (
        <Typography key={i} component="li" variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {changeLine(change, props[change.field]?.title ?? change.field)}
        </Typography>
      ))}
    </Box>
  );
}
