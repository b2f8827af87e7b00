import ContentCopy from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { notify } from '../../core/app/notices';
import { truncateText } from '../../core/list/presentation';
import type { CellProps } from '../../registry/override-types';
import { LazyTooltip } from '../LazyTooltip';
import { OverflowText } from './OverflowText';
import { t } from '../../core/i18n/i18n';

/** `cell: "link"`: the URL as a link that opens in a new tab, cut at `truncate`. */
export function LinkCell({ value, column }: CellProps) {
  if (typeof value !== 'string' || !value) return null;
  const { text } = truncateText(value, column.truncate);
  return (
    <Link href={value} target="_blank" rel="noreferrer" title={value} noWrap>
      {text}
    </Link>
  );
}

/** `cell: "image"`: a small thumbnail linking to the full image. */
export function ImageCell({ value, column }: CellProps) {
  if (typeof value !== 'string' || !value) return null;
  return (
    <Link href={value} target="_blank" rel="noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', height: '100%' }}>
      <Box component="img" src={value} alt={column.label ?? column.field} loading="lazy" sx={{ height: 36, maxWidth: 96, objectFit: 'contain', bgcolor: 'grey.100', borderRadius: 0.5 }} />
    </Link>
  );
}

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  // Without the async clipboard (plain http on another host), a selected textarea still copies.
  const area = document.createElement('textarea');
  area.value = text;
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** `cell: "copy"`: the text with a button that copies it. */
export function CopyCell({ value, column }: CellProps) {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value);
  const label = column.label ?? column.field;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0, height: '100%' }}>
      <OverflowText text={text} />
      <LazyTooltip title={t('Copy {label}', { label })}>
        <IconButton
          size="small"
          aria-label={t('Copy {label}', { label })}
          onClick={() =>
            void copyText(text).then(
              () => notify({ severity: 'info', text: t('Copied {label}', { label }) }),
              () => notify({ severity: 'error', text: t('Could not copy') }),
            )
          }
        >
          <ContentCopy fontSize="inherit" />
        </IconButton>
      </LazyTooltip>
    </Stack>
  );
}
