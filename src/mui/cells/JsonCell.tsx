import AccountTree from '@mui/icons-material/AccountTreeOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { truncateText } from '../../core/list/presentation';
import type { CellProps } from '../../registry/override-types';
import { LazyTooltip } from '../LazyTooltip';
import { JsonTree } from './JsonTree';
import { t } from '../../core/i18n/i18n';

/** `cell: "json"`: a collapsed one-line preview with the full text on hover; the button opens the value as a tree. */
export function JsonCell({ value, column }: CellProps) {
  const [open, setOpen] = useState(false);
  if (value === null || value === undefined) return null;
  const { text, truncated } = truncateText(JSON.stringify(value), column.truncate ?? 50);
  const title = column.label ?? column.field;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0, height: '100%' }}>
      <LazyTooltip title={t('Show {title} as a tree', { title })}>
        <IconButton size="small" aria-label={t('Show {title}', { title })} onClick={() => setOpen(true)}>
          <AccountTree fontSize="small" />
        </IconButton>
      </LazyTooltip>
      <LazyTooltip
        placement="bottom-start"
        slotProps={{ tooltip: { sx: { maxWidth: 560 } } }}
        title={<pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 360, overflow: 'auto', fontSize: 12 }}>{JSON.stringify(value, null, 2)}</pre>}
      >
        <span data-truncated={truncated || undefined} style={{ fontFamily: 'ui-monospace, monospace', fontSize: 12, overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {text}
        </span>
      </LazyTooltip>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="md">
        <DialogTitle>{title}</DialogTitle>
        <DialogContent dividers>
          <JsonTree value={value} openDepth={1} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('Close')}</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
