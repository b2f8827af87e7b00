import Chip from '@mui/material/Chip';
import type { Theme } from '@mui/material/styles';
import type { ComponentType } from 'react';
import { formatValue } from '../core/list/format-value';
import { localDateTime, useT } from '../core/i18n/i18n';
import type { FieldSchema } from '../../kernel/manifest/types';
import { truncateText } from '../core/list/presentation';
import { installed as overrides } from './installed';
import type { CellProps } from './override-types';
import { createRegistry } from './registry';
import { JsonCell } from '../mui/cells/JsonCell';
import { LazyTooltip } from '../mui/LazyTooltip';
import { CopyCell, ImageCell, LinkCell } from '../mui/cells/LinkCells';
import { ToggleCell } from '../mui/cells/ToggleCell';
import { LookupCell } from '../mui/cells/LookupCell';
import { ChangesCell } from '../mui/cells/ChangesCell';
import { OverflowText } from '../mui/cells/OverflowText';

/** Text, cut at `column.truncate` characters with the full text in a tooltip on hover. */
export function TextCell({ value, row, column, schema }: CellProps) {
  const prefix = column.prefixField ? formatValue(row[column.prefixField]) : '';
  const full = [prefix, formatValue(value, schema)].filter(Boolean).join(' ');
  const { text, truncated } = truncateText(full, column.truncate);
  // A moment shows in UTC; the user's own zone is in the native tooltip (cheap on a page of 500 dated rows).
  const local = schema?.format === 'date-time' && typeof value === 'string' ? localDateTime(value) : '';
  if (local) {
    return (
      <span title={local} data-local-time={local}>
        <OverflowText text={full} />
      </span>
    );
  }
  if (!truncated) return <OverflowText text={full} />;
  return (
    <LazyTooltip title={<span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{full}</span>} placement="bottom-start">
      <span data-truncated="true" aria-label={full}>
        {text}
      </span>
    </LazyTooltip>
  );
}

export function BooleanCell({ value }: CellProps) {
  const t = useT();
  if (value === null || value === undefined) return null;
  return <Chip size="small" variant="outlined" color={value ? 'success' : 'default'} label={value ? t('yes') : t('no')} sx={value ? YES_TEXT : undefined} />;
}

/** The "yes" text one shade deeper than the success colour: on a green-toned row the main shade read at 4.1:1 (AA asks 4.5:1). */
const YES_TEXT = { color: (theme: Theme) => (theme.palette.mode === 'dark' ? theme.palette.success.light : theme.palette.success.dark) } as const;

export const cells = createRegistry<ComponentType<CellProps>>(
  'cell',
  { text: TextCell, boolean: BooleanCell, toggle: ToggleCell, json: JsonCell, link: LinkCell, image: ImageCell, copy: CopyCell, lookup: LookupCell, changes: ChangesCell },
  overrides.cells,
);

/** The built-in cell of a field when the column names none. */
export function defaultCellName(schema: FieldSchema | undefined): string {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  if (type === 'object') return 'json';
  return type === 'boolean' ? 'boolean' : 'text';
}
