import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { alpha, type Theme } from '@mui/material/styles';
import {
  DataGrid,
  GridRow,
  type GridColDef,
  type GridRowId,
  type GridRowProps,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { fileRuleOf } from '../core/form/files';
import { detailFields, fieldLabel, fieldSchema, formatValue, getPath } from '../core/manifest/fields';
import type { Manifest } from '../core/manifest/types';
import { matches } from '../core/access/access';
import { cells, defaultCellName } from '../registry/cells';
import { tones } from '../registry/tones';

/** Fixed geometry: the details block has a known height so `getRowHeight` can reserve exactly that space. */
export const ROW_HEIGHT = 52;
const DETAIL_LINE = 28;
const DETAIL_PADDING = 24;
const DETAIL_COLUMNS = 2;

/** The pixel height of a manifest's details block. */
export function detailsHeight(manifest: Manifest): number {
  return Math.ceil(detailFields(manifest).length / DETAIL_COLUMNS) * DETAIL_LINE + DETAIL_PADDING;
}

/**
 * The MIT grid's paging stays fixed and server-side; the screen pages with TablePagination. With `rowCount`
 * equal to the rows given, the grid draws every row (500 too) instead of capping pages at 100 (DESIGN 5).
 */
export const FIXED_GRID_PAGING = { paginationModel: { page: 0, pageSize: 100 }, paginationMode: 'server', pageSizeOptions: [100] } as const;

interface DetailsContextValue {
  manifest: Manifest;
  expanded: ReadonlySet<GridRowId>;
  height: number;
}
const DetailsContext = createContext<DetailsContextValue | null>(null);

function DetailsBlock({ manifest, row, height }: { manifest: Manifest; row: GridValidRowModel; height: number }) {
  const fields = detailFields(manifest);
  return (
    <Box
      data-testid="row-details"
      sx={{
        height,
        px: 2,
        py: `${DETAIL_PADDING / 2}px`,
        position: 'sticky',
        left: 0,
        width: 'min(100%, 100cqw)',
        bgcolor: 'action.hover',
        borderBottom: 1,
        borderColor: 'divider',
        display: 'grid',
        gridTemplateColumns: `repeat(${DETAIL_COLUMNS}, minmax(0, 1fr))`,
        gridAutoRows: `${DETAIL_LINE}px`,
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
          <Box key={f} sx={{ display: 'flex', gap: 1, alignItems: 'center', minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0, minWidth: 140 }}>
              {fieldLabel(manifest, f)}
            </Typography>
            {linked ? (
              <Link href={text} target="_blank" rel="noreferrer" variant="body2" title={text} data-field={f} noWrap sx={{ fontWeight: 500 }}>
                {text}
              </Link>
            ) : (
              <Typography variant="body2" title={text} data-field={f} noWrap sx={{ fontWeight: 500 }}>
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
      <DetailsBlock manifest={ctx.manifest} row={props.row} height={ctx.height} />
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
  const height = detailsHeight(manifest);
  const columns = useMemo<GridColDef[]>(() => {
    const declared = manifest.list?.columns ?? [];
    const cols: GridColDef[] = declared.map((column, i) => {
      const schema = fieldSchema(manifest, column.field);
      const Cell = cells.get(column.cell ?? defaultCellName(schema), { file, path: `/list/columns/${i}/cell` });
      return {
        field: `col${i}`,
        headerName: column.label ?? schema?.title ?? column.field,
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        ...(column.width ? { width: column.width } : { flex: 1, minWidth: 140 }),
        valueGetter: (_value: unknown, row: GridValidRowModel) => getPath(row, column.field),
        renderCell: (params) => <Cell value={params.value} row={params.row} column={column} schema={schema} />,
      };
    });
    if (renderActions) {
      cols.unshift({
        field: '__actions',
        headerName: 'Actions',
        width: actionsWidth,
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        renderCell: (params) => renderActions(params.row),
      });
    }
    return cols;
  }, [manifest, file, renderActions, actionsWidth]);

  const highlight = manifest.list?.highlight;
  const getRowClassName = useCallback(
    ({ row }: { row: GridValidRowModel }) => {
      const index = highlight?.findIndex((h) => matches(row, h.when)) ?? -1;
      if (index < 0) return '';
      return `row-tone-${tones.get(highlight![index].tone, { file, path: `/list/highlight/${index}/tone` })}`;
    },
    [highlight, file],
  );
  const getRowHeight = useCallback(({ id }: { id: GridRowId }) => (expanded.has(id) ? ROW_HEIGHT + height : null), [expanded, height]);
  const ctx = useMemo(() => ({ manifest, expanded, height }), [manifest, expanded, height]);

  return (
    <DetailsContext.Provider value={ctx}>
      <DataGrid
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
        localeText={{ noRowsLabel: noRowsLabel ?? 'No records' }}
        disableVirtualization={disableVirtualization}
        sx={(theme) => ({
          bgcolor: 'background.paper',
          border: 0,
          '--DataGrid-overlayHeight': '180px',
          '& .MuiDataGrid-columnHeaders': { bgcolor: 'grey.50' },
          '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 600 },
          '& .MuiDataGrid-cell:focus, & .MuiDataGrid-cell:focus-within': { outline: 'none' },
          ...toneStyles(theme),
        })}
      />
    </DetailsContext.Provider>
  );
}
