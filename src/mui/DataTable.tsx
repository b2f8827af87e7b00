import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { alpha, useTheme, type Theme } from '@mui/material/styles';
import {
  DataGrid,
  GridRow,
  useGridApiRef,
  type GridColDef,
  type GridRowId,
  type GridRowProps,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { contentWidth, estimateWidth, type TextWidth } from '../core/list/column-widths';
import { fileRuleOf } from '../core/form/files';
import { detailFields, fieldLabel, fieldSchema, formatValue, getPath } from '../core/manifest/fields';
import type { Manifest } from '../core/manifest/types';
import { matches } from '../core/access/access';
import { cells, defaultCellName } from '../registry/cells';
import { tones } from '../registry/tones';
import { t } from '../core/i18n/i18n';
import { useGridLocaleText } from './locale-theme';

/**
 * Row geometry: a details block wraps long values, so its height is measured once drawn and `getRowHeight`
 * reserves exactly that; until then it reserves the height of one line per field pair.
 */
export const ROW_HEIGHT = 52;
const DETAIL_LINE = 28;
const DETAIL_PADDING = 24;
const DETAIL_COLUMNS = 2;

/** The pixel height of a manifest's details block while every value fits on one line. */
export function detailsHeight(manifest: Manifest): number {
  return Math.ceil(detailFields(manifest).length / DETAIL_COLUMNS) * DETAIL_LINE + DETAIL_PADDING;
}

const measurers = new Map<string, TextWidth>();

/** Text width in the theme's font (the cells' 14px), measured on one canvas where there is one (not in jsdom). */
function canvasMeasure(fontFamily: string): TextWidth {
  let measure = measurers.get(fontFamily);
  if (measure) return measure;
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext?.('2d');
  measure = !context
    ? estimateWidth
    : (text, bold) => {
        context.font = `${bold ? 600 : 400} 14px ${fontFamily}`;
        return Math.ceil(context.measureText(text).width);
      };
  measurers.set(fontFamily, measure);
  return measure;
}

/**
 * The MIT grid's paging stays fixed and server-side; the screen pages with TablePagination. With `rowCount`
 * equal to the rows given, the grid draws every row (500 too) instead of capping pages at 100 (DESIGN 5).
 */
export const FIXED_GRID_PAGING = { paginationModel: { page: 0, pageSize: 100 }, paginationMode: 'server', pageSizeOptions: [100] } as const;

interface DetailsContextValue {
  manifest: Manifest;
  expanded: ReadonlySet<GridRowId>;
  /** Reports the drawn height of a row's details block. */
  measured: (id: GridRowId, height: number) => void;
}
const DetailsContext = createContext<DetailsContextValue | null>(null);

function DetailsBlock({ manifest, row, rowId, measured }: { manifest: Manifest; row: GridValidRowModel; rowId: GridRowId; measured: DetailsContextValue['measured'] }) {
  const fields = detailFields(manifest);
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    measured(rowId, el.offsetHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => measured(rowId, el.offsetHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [rowId, measured]);
  return (
    <Box
      ref={box}
      data-testid="row-details"
      sx={{
        minHeight: DETAIL_LINE + DETAIL_PADDING,
        px: 2,
        py: `${DETAIL_PADDING / 2}px`,
        position: 'sticky',
        left: 0,
        // As wide as the grid's visible area (the container is the grid's main box), however wide the columns are.
        width: 'min(100%, 100cqw)',
        bgcolor: 'action.hover',
        borderBottom: 1,
        borderColor: 'divider',
        display: 'grid',
        gridTemplateColumns: `repeat(${DETAIL_COLUMNS}, minmax(0, 1fr))`,
        gridAutoRows: `minmax(${DETAIL_LINE}px, auto)`,
        columnGap: 4,
        boxSizing: 'border-box',
      }}
    >
      {fields.map((f) => {
        const value = getPath(row, f);
        const schema = fieldSchema(manifest, f);
        const text = formatValue(value, schema);
        const linked = typeof value === 'string' && value !== '' && (schema?.format === 'uri' || Boolean(fileRuleOf(manifest, f)));
        return (
          <Box key={f} sx={{ display: 'flex', gap: 1, alignItems: 'baseline', minWidth: 0, py: 0.5 }}>
            <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0, minWidth: 140 }}>
              {fieldLabel(manifest, f)}
            </Typography>
            {/* Long values (URLs, JSON) wrap inside the visible width instead of running off the right edge. */}
            {linked ? (
              <Link href={text} target="_blank" rel="noreferrer" variant="body2" data-field={f} sx={{ fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere' }}>
                {text}
              </Link>
            ) : (
              <Typography variant="body2" data-field={f} sx={{ fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                {text || '—'}
              </Typography>
            )}
          </Box>
        );
      })}
    </Box>
  );
}

/** slots.row: the standard row, plus the details block below it when the row is expanded. */
function RowWithDetails(props: GridRowProps) {
  const ctx = useContext(DetailsContext)!;
  const open = ctx.expanded.has(props.rowId);
  if (!open) return <GridRow {...props} />;
  return (
    <div data-expanded-row={String(props.rowId)}>
      <GridRow {...props} rowHeight={ROW_HEIGHT} />
      <DetailsBlock manifest={ctx.manifest} row={props.row} rowId={props.rowId} measured={ctx.measured} />
    </div>
  );
}

function toneStyles(theme: Theme) {
  const styles: Record<string, object> = {};
  for (const tone of ['success', 'warning', 'info', 'error'] as const) {
    const color = theme.palette[tone].main;
    styles[`& .row-tone-${tone}`] = { bgcolor: alpha(color, 0.12), '&:hover': { bgcolor: alpha(color, 0.2) } };
  }
  return styles;
}

export interface DataTableProps {
  manifest: Manifest;
  file: string;
  rows: Record<string, unknown>[];
  loading: boolean;
  expanded: ReadonlySet<GridRowId>;
  /** The actions column, drawn first; null for none. */
  renderActions: ((row: Record<string, unknown>) => ReactNode) | null;
  actionsWidth: number;
  noRowsLabel?: string;
  /** jsdom has no layout: tests render every row and column without virtualization. */
  disableVirtualization?: boolean;
}

/** The list table of a manifest: its columns, cells, highlight tones and expandable details rows. */
export function DataTable({ manifest, file, rows, loading, expanded, renderActions, actionsWidth, noRowsLabel, disableVirtualization }: DataTableProps) {
  const theme = useTheme();
  const height = detailsHeight(manifest);
  const columns = useMemo<GridColDef[]>(() => {
    const declared = manifest.list?.columns ?? [];
    const measureText = canvasMeasure(theme.typography.fontFamily ?? 'sans-serif');
    const cols: GridColDef[] = declared.map((column, i) => {
      const schema = fieldSchema(manifest, column.field);
      const cellName = column.cell ?? defaultCellName(schema);
      const Cell = cells.get(cellName, { file, path: `/list/columns/${i}/cell` });
      return {
        field: `col${i}`,
        headerName: column.label ?? schema?.title ?? column.field,
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        // A declared width is kept; otherwise the column is at least as wide as its content and shares the rest.
        ...(column.width ? { width: column.width } : { flex: 1, minWidth: contentWidth(column, cellName, schema, rows, measureText) }),
        valueGetter: (_value: unknown, row: GridValidRowModel) => getPath(row, column.field),
        renderCell: (params) => <Cell value={params.value} row={params.row} column={column} schema={schema} />,
      };
    });
    if (renderActions) {
      cols.unshift({
        field: '__actions',
        headerName: t('Actions'),
        width: actionsWidth,
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        renderCell: (params) => renderActions(params.row),
      });
    }
    return cols;
  }, [manifest, file, renderActions, actionsWidth, rows, theme]);

  const highlight = manifest.list?.highlight;
  const getRowClassName = useCallback(
    ({ row }: { row: GridValidRowModel }) => {
      const index = highlight?.findIndex((h) => matches(row, h.when)) ?? -1;
      if (index < 0) return '';
      return `row-tone-${tones.get(highlight![index].tone, { file, path: `/list/highlight/${index}/tone` })}`;
    },
    [highlight, file],
  );
  const apiRef = useGridApiRef();
  const gridLocaleText = useGridLocaleText();
  const [heights, setHeights] = useState<ReadonlyMap<GridRowId, number>>(new Map());
  const measured = useCallback((id: GridRowId, drawn: number) => {
    setHeights((prev) => (prev.get(id) === drawn ? prev : new Map(prev).set(id, drawn)));
  }, []);
  const getRowHeight = useCallback(
    ({ id }: { id: GridRowId }) => (expanded.has(id) ? ROW_HEIGHT + (heights.get(id) ?? height) : null),
    [expanded, height, heights],
  );
  // The grid caches row heights: a measured block asks it to read them again.
  useEffect(() => apiRef.current?.resetRowHeights(), [apiRef, heights]);
  const ctx = useMemo(() => ({ manifest, expanded, measured }), [manifest, expanded, measured]);

  return (
    <DetailsContext.Provider value={ctx}>
      <DataGrid
        apiRef={apiRef}
        rows={rows}
        columns={columns}
        getRowId={(row) => (row.id ?? JSON.stringify(row)) as GridRowId}
        loading={loading}
        rowCount={rows.length}
        {...FIXED_GRID_PAGING}
        sortingMode="server"
        filterMode="server"
        // The panel's CSP has no 'unsafe-eval'; the grid would otherwise try `new Function` to speed up filtering.
        disableEval
        hideFooter
        disableRowSelectionOnClick
        disableColumnSelector
        rowHeight={ROW_HEIGHT}
        getRowHeight={getRowHeight}
        getRowClassName={getRowClassName}
        slots={{ row: RowWithDetails }}
        localeText={{ ...gridLocaleText, noRowsLabel: noRowsLabel ?? t('No records') }}
        disableVirtualization={disableVirtualization}
        sx={(theme) => ({
          bgcolor: 'background.paper',
          border: 0,
          '--DataGrid-overlayHeight': '180px',
          // The details block measures 100cqw against this box: the visible width of the grid.
          '& .MuiDataGrid-main': { containerType: 'inline-size' },
          '& .MuiDataGrid-columnHeaders': { bgcolor: 'grey.50' },
          '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 600 },
          '& .MuiDataGrid-cell:focus, & .MuiDataGrid-cell:focus-within': { outline: 'none' },
          ...toneStyles(theme),
        })}
      />
    </DetailsContext.Provider>
  );
}
