import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTheme, type Theme } from '@mui/material/styles';
import {
  DataGrid,
  GridRow,
  gridFocusCellSelector,
  useGridApiContext,
  useGridApiRef,
  type GridColDef,
  type GridColumnResizeParams,
  type GridColumnVisibilityModel,
  type GridDensity,
  type GridRowId,
  type GridRowProps,
  type GridSortModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { createContext, memo, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ComponentType, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { CellProps } from '../registry/override-types';
import { contentWidth, estimateWidth, type TextWidth } from '../core/list/column-widths';
import { columnsToHide } from '../core/list/column-priority';
import type { ExpandedRows } from '../core/list/expanded-rows';
import { fileRuleOf } from '../core/form/files';
import { detailFields, fieldLabel, fieldSchema, getPath } from '../../kernel/manifest/fields';
import { formatValue } from '../core/list/format-value';
import type { Manifest } from '../../kernel/manifest/types';
import { matches } from '../core/access/access';
import { cells, defaultCellName } from '../registry/cells';
import { tones } from '../registry/tones';
import { t } from '../core/i18n/i18n';
import { useGridLocaleText } from './locale-theme';
import { GridToolbar } from './grid/GridToolbar';
import { toneBackground } from './theme';
import { useGridPreferences } from './grid/grid-preferences';
import { fromSortModel, toSortModel, type ListSort } from './grid/sort-model';
import { onIdle } from '../core/idle';
import { listRowsDrawn } from '../core/list/rows-drawn';
import { UNSEEN_BOX, whenDrawn } from './when-drawn';

/** The grid's row height factor of each density (its own: compact 0.7, comfortable 1.3). */
const DENSITY_FACTOR: Record<GridDensity, number> = { compact: 0.7, standard: 1, comfortable: 1.3 };

/**
 * Row geometry: a details block wraps long values, so its height is measured once drawn and `getRowHeight`
 * reserves exactly that; until then it reserves the height of one line per field pair.
 */
export const ROW_HEIGHT = 52;
/** What the grid's width keeps free beside the columns: its vertical scrollbar and borders. */
const SCROLLBAR_ROOM = 20;
const DETAIL_LINE = 28;
const DETAIL_PADDING = 24;
const DETAIL_COLUMNS = 2;
const DETAIL_BORDER = 1;

/**
 * The pixel height of a manifest's details block while every value fits on one line, as drawn (its bottom border
 * included): when the estimate is right, opening a row lays the grid out once.
 */
export function detailsHeight(manifest: Manifest): number {
  return Math.ceil(detailFields(manifest).length / DETAIL_COLUMNS) * DETAIL_LINE + DETAIL_PADDING + DETAIL_BORDER;
}

const measurers = new Map<string, TextWidth>();
const DIGITS = /[0-9]/g;
const WIDTHS_KEPT = 20000;

/**
 * Text width in the theme's font (the cells' 14px), measured on one canvas where there is one (not in jsdom). Each
 * text is measured once; when the font's ten digits are equally wide (tabular figures), texts that differ only in
 * their digits share one measure: a page of names like `platform-00017` or of dates costs a handful, not one per cell.
 */
function canvasMeasure(fontFamily: string): TextWidth {
  let measure = measurers.get(fontFamily);
  if (measure) return measure;
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext?.('2d');
  if (!context) {
    measurers.set(fontFamily, estimateWidth);
    return estimateWidth;
  }
  const fonts = [`400 14px ${fontFamily}`, `600 14px ${fontFamily}`];
  const widths = new Map<string, number>();
  let tabular = false;
  let font = '';
  const reset = () => {
    widths.clear();
    font = '';
    tabular = fonts.every((each) => {
      context.font = each;
      const zero = context.measureText('0').width;
      return [...'123456789'].every((digit) => context.measureText(digit).width === zero);
    });
  };
  reset();
  // A web font that finishes loading changes every width.
  document.fonts?.addEventListener?.('loadingdone', reset);
  measure = (text, bold) => {
    const key = `${bold ? 1 : 0}${tabular ? text.replace(DIGITS, '0') : text}`;
    let width = widths.get(key);
    if (width === undefined) {
      if (font !== fonts[bold ? 1 : 0]) context.font = font = fonts[bold ? 1 : 0];
      width = Math.ceil(context.measureText(text).width);
      if (widths.size >= WIDTHS_KEPT) widths.clear();
      widths.set(key, width);
    }
    return width;
  };
  measurers.set(fontFamily, measure);
  return measure;
}

/**
 * The MIT grid's paging stays fixed and server-side; the screen pages with TablePagination. With `rowCount`
 * equal to the rows given, the grid draws every row (500 too) instead of capping pages at 100 (DESIGN 5).
 */
export const FIXED_GRID_PAGING = { paginationModel: { page: 0, pageSize: 100 }, paginationMode: 'server', pageSizeOptions: [100] } as const;

type RenderActions = (row: Record<string, unknown>) => ReactNode;

/**
 * The actions column's drawing, as a store: a new `renderActions` (the list's reload changes with each page)
 * redraws the actions cells only, where a new column definition would make the grid rebuild every column and row.
 */
class RowActions {
  private listeners = new Set<() => void>();
  constructor(private render: RenderActions | null) {}
  get = () => this.render;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  set(render: RenderActions | null) {
    if (render === this.render) return;
    this.render = render;
    for (const listener of this.listeners) listener();
  }
}

interface DetailsContextValue {
  manifest: Manifest;
  /** The height of a row without details at the chosen density. */
  rowHeight: number;
  expanded: ExpandedRows;
  /** Reports the drawn height of a row's details block. */
  measured: (id: GridRowId, height: number) => void;
  actions: RowActions;
}
const DetailsContext = createContext<DetailsContextValue | null>(null);

/**
 * Whether a row of the table around shows its details; re-renders its caller when that row's state changes only.
 * @example const open = useRowExpanded(row.id) // in a cell of the actions column
 */
export function useRowExpanded(id: GridRowId): boolean {
  const expanded = useContext(DetailsContext)?.expanded;
  return useSyncExternalStore(expanded?.subscribe ?? noSubscription, () => expanded?.has(id) ?? false);
}
const noSubscription = () => () => {};

interface DetailsBlockProps {
  manifest: Manifest;
  row: GridValidRowModel;
  rowId: GridRowId;
  measured: DetailsContextValue['measured'];
  /** Drawn ahead of its use (DetailsWarmUp): not one of the page's details rows. */
  unseen?: boolean;
}

function DetailsBlock({ manifest, row, rowId, measured, unseen }: DetailsBlockProps) {
  const fields = detailFields(manifest);
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (typeof ResizeObserver === 'undefined') return measured(rowId, el.offsetHeight);
    // The observer's first report comes after the browser's own layout and before the paint: reading the height
    // here instead would lay the whole grid out once more inside the toggle's commit.
    const observer = new ResizeObserver(() => measured(rowId, el.offsetHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [rowId, measured]);
  return (
    <Box
      ref={box}
      data-testid={unseen ? undefined : 'row-details'}
      data-details-block=""
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
        const Drawn = schema?.['x-cell'] ? cells.get(schema['x-cell'], { file: manifest.entity, path: `/record/properties/${f}/x-cell` }) : null;
        return (
          <Box key={f} sx={{ display: 'flex', gap: 1, alignItems: 'baseline', minWidth: 0, py: 0.5, gridColumn: Drawn ? '1 / -1' : undefined }}>
            <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0, minWidth: 140 }}>
              {fieldLabel(manifest, f)}
            </Typography>
            {/* Long values (URLs, JSON) wrap inside the visible width instead of running off the right edge. */}
            {Drawn ? (
              <Box data-field={f} sx={{ minWidth: 0 }}>
                <Drawn value={value} row={row} column={{ field: f }} schema={schema} />
              </Box>
            ) : linked ? (
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

/** The manifests whose details block was drawn once unseen on this page (DetailsWarmUp): once is enough. */
const warmedDetails = new Set<string>();
const noMeasure = () => undefined;

/**
 * A list's first details row drew its block for the first time: emotion serialized and inserted its styles (5 ms of
 * insertRule in a trace of the click, then a restyle of the page) and its code ran cold. This draws the first row's
 * block once, unseen, when the browser is idle after the rows are drawn, and drops it once it is in the page, so the
 * first Details click finds both ready. Once per manifest and page load; it takes no focus and no click.
 */
function DetailsWarmUp({ manifest, row }: { manifest: Manifest; row: GridValidRowModel | undefined }) {
  const [drawing, setDrawing] = useState(false);
  const host = useRef<HTMLSpanElement>(null);
  const ready = Boolean(row) && !warmedDetails.has(manifest.entity);
  useEffect(() => (ready ? onIdle(() => setDrawing(true), 1000) : undefined), [ready]);
  useEffect(() => {
    if (!drawing || !host.current) return;
    return whenDrawn(host.current, '[data-details-block]', 1000, () => {
      warmedDetails.add(manifest.entity);
      setDrawing(false);
    });
  }, [drawing, manifest.entity]);
  if (!drawing || !row) return null;
  return (
    <span ref={host} aria-hidden="true" inert style={UNSEEN_BOX} data-testid="details-warm-up">
      <DetailsBlock manifest={manifest} row={row} rowId={rowIdOf(row)} measured={noMeasure} unseen />
    </span>
  );
}

/**
 * The grid redraws every drawn cell whenever any of its props changes (the first page's `loading`, new rows, its row
 * heights): a cell whose row and column are the same keeps what it drew.
 * Cells still follow their own subscriptions and contexts (a row's details toggle, the theme).
 */
const GridCellContent = memo(function GridCellContent({ Cell, ...props }: CellProps & { Cell: ComponentType<CellProps> }) {
  return <Cell {...props} />;
});

const ACTIONS_FIELD = '__actions';

/** The buttons and links of a cell that take the focus, in their order. */
function focusablesIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('button:not([disabled]), a[href]')];
}

/**
 * The actions column's cell: the list's current row actions for its row, as MUI X's GridActionsCell holds its
 * buttons. The grid is one Tab stop (the focused cell's `tabIndex` 0, every other cell's -1): of the row's buttons
 * only the current one takes the cell's `tabIndex`, the others -1, so 20 rows of buttons are not 60 Tab stops.
 * ArrowLeft/ArrowRight move between them, past the first or the last the grid moves to the next cell; arriving
 * in the cell (arrows, a click, Tab) the grid focuses the button whose tabindex is 0. The buttons are whatever
 * the screen draws (tooltips, wrappers), so their tabindex is set on the DOM and kept when they redraw themselves
 * (a button disabled while its call runs gets MUI's tabindex back when enabled).
 */
const ActionsCell = memo(function ActionsCell({ id, row, tabIndex }: { id: GridRowId; row: Record<string, unknown>; tabIndex: 0 | -1 }) {
  const actions = useContext(DetailsContext)!.actions;
  const apiRef = useGridApiContext();
  const render = useSyncExternalStore(actions.subscribe, actions.get);
  const root = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  // Back to the first button once the grid's Tab stop is another cell; a Tab out of the grid and back keeps the button.
  useEffect(() => {
    if (tabIndex === -1) setCurrent(0);
  }, [tabIndex]);
  // A layout effect: it runs before the grid's cell looks for its `[tabindex="0"]` to focus.
  useLayoutEffect(() => {
    const box = root.current;
    if (!box) return;
    const apply = () => {
      const buttons = focusablesIn(box);
      const chosen = Math.min(current, buttons.length - 1);
      buttons.forEach((button, i) => {
        const want = i === chosen ? tabIndex : -1;
        if (button.tabIndex !== want) button.tabIndex = want;
      });
    };
    apply();
    if (typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(apply);
    observer.observe(box, { subtree: true, childList: true, attributes: true, attributeFilter: ['tabindex', 'disabled'] });
    return () => observer.disconnect();
  }, [current, tabIndex]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const buttons = focusablesIn(event.currentTarget);
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const next = at + (event.key === 'ArrowRight' ? 1 : -1);
    // Past the first or the last button the grid takes the key and moves to the next cell.
    if (at < 0 || next < 0 || next >= buttons.length) return;
    event.preventDefault();
    event.stopPropagation();
    setCurrent(next);
    buttons[next].focus({ preventScroll: true });
  };
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const at = focusablesIn(event.currentTarget).indexOf(event.target as HTMLElement);
    if (at >= 0 && at !== current) setCurrent(at);
    // A button focused other than by the grid's keys or a click (a script, a screen reader) makes its cell the grid's
    // focus and Tab stop, as a click does: else Shift+Tab from it would go back to the previous Tab stop's button.
    const focus = gridFocusCellSelector(apiRef);
    if (focus?.id !== id || focus.field !== ACTIONS_FIELD) apiRef.current.setCellFocus(id, ACTIONS_FIELD);
  };
  return (
    // No role of its own: the buttons stay plain buttons of the gridcell; it only relays their keys and focus.
    <Box ref={root} onKeyDown={onKeyDown} onFocus={onFocus} sx={{ display: 'flex', alignItems: 'center', height: '100%' }}>
      {render ? render(row) : null}
    </Box>
  );
});

/**
 * slots.row: the standard row, plus the details block below it when the row is expanded. The row keeps its place
 * in the tree either way: remounting it would redraw its cells and make the grid focus the clicked cell again,
 * which forces a layout.
 */
function RowWithDetails(props: GridRowProps) {
  const ctx = useContext(DetailsContext)!;
  const open = useRowExpanded(props.rowId);
  return (
    <>
      <GridRow {...props} rowHeight={open ? ctx.rowHeight : props.rowHeight} />
      {open && <DetailsBlock manifest={ctx.manifest} row={props.row} rowId={props.rowId} measured={ctx.measured} />}
    </>
  );
}

/** The grid's own styles, row tones included: one function, so a render does not hand the grid a new `sx`. */
function gridStyles(theme: Theme) {
  const styles: Record<string, string | number | object> = {
    bgcolor: 'background.paper',
    border: 0,
    '--DataGrid-overlayHeight': '180px',
    // The details block measures 100cqw against this box: the visible width of the grid.
    '& .MuiDataGrid-main': { containerType: 'inline-size' },
    '& .MuiDataGrid-columnHeaders': { bgcolor: theme.palette.mode === 'dark' ? 'grey.900' : 'grey.50' },
    '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 600 },
    // No ring on a clicked cell; a cell reached by the keyboard shows the theme's (a button in it shows its own).
    '& .MuiDataGrid-cell:focus, & .MuiDataGrid-cell:focus-within, & .MuiDataGrid-columnHeader:focus, & .MuiDataGrid-columnHeader:focus-within': { outline: 'none' },
    '& .MuiDataGrid-cell:focus-visible, & .MuiDataGrid-columnHeader:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: '-2px' },
  };
  for (const tone of ['success', 'warning', 'info', 'error'] as const) {
    styles[`& .row-tone-${tone}`] = { bgcolor: toneBackground(theme, tone, 'rest'), '&:hover': { bgcolor: toneBackground(theme, tone, 'hover') } };
  }
  return styles;
}

const GRID_SLOTS = { row: RowWithDetails, toolbar: GridToolbar };
const rowIdOf = (row: GridValidRowModel) => (row.id ?? JSON.stringify(row)) as GridRowId;

export interface DataTableProps {
  manifest: Manifest;
  file: string;
  rows: Record<string, unknown>[];
  /** No rows yet: the grid shows its loading overlay instead of rows. */
  loading: boolean;
  /** The rows shown stay while the next page (another order, other filters) is fetched: the grid's loading bar over them. */
  fetching?: boolean;
  /** The rows whose details show (the list controller's store). */
  expanded: ExpandedRows;
  /** The actions column, drawn first; null for none. */
  renderActions: RenderActions | null;
  actionsWidth: number;
  noRowsLabel?: string;
  /** jsdom has no layout: tests render every row and column without virtualization. */
  disableVirtualization?: boolean;
  /** Sorting by a header click: the list's sort (the URL's), the manifest's sortable fields and the setter. */
  sort?: ListSort & { sortable: readonly string[]; onChange: (next: ListSort) => void };
  /** Where the user's hidden columns, widths and density are kept (gridPreferencesKey); none: no toolbar. */
  preferencesKey?: string;
}

/**
 * The list table of a manifest: its columns, cells, highlight tones and expandable details rows. Every prop the
 * grid gets stays the same object while nothing it shows changes, so the list screen's own renders (a toggle, a
 * modal opening) never redo the grid; a details toggle re-renders that row and re-reads the row heights only.
 */
export const DataTable = memo(function DataTable({ manifest, file, rows, loading, fetching = false, expanded, renderActions, actionsWidth, noRowsLabel, disableVirtualization, sort, preferencesKey }: DataTableProps) {
  const theme = useTheme();
  const [prefs, updatePrefs] = useGridPreferences(preferencesKey);
  const declaredFields = useMemo(() => (manifest.list?.columns ?? []).map((c) => c.field), [manifest]);
  const sortable = sort?.sortable;
  // What each declared column draws, resolved once per manifest.
  const declared = useMemo(
    () =>
      (manifest.list?.columns ?? []).map((column, i) => {
        const schema = fieldSchema(manifest, column.field);
        const cellName = column.cell ?? defaultCellName(schema);
        return { column, schema, cellName, Cell: cells.get(cellName, { file, path: `/list/columns/${i}/cell` }) };
      }),
    [manifest, file],
  );
  // The content widths of the columns that size themselves, as one key: new rows as wide as the last keep the columns.
  const fontFamily = theme.typography.fontFamily ?? 'sans-serif';
  const minWidthsKey = useMemo(() => {
    const measureText = canvasMeasure(fontFamily);
    return declared.map(({ column, cellName, schema }) => (column.width ? 0 : contentWidth(column, cellName, schema, rows, measureText))).join(',');
  }, [declared, rows, fontFamily]);
  const hasActions = renderActions !== null;
  const [actions] = useState(() => new RowActions(renderActions));
  useLayoutEffect(() => actions.set(renderActions), [actions, renderActions]);
  const columns = useMemo<GridColDef[]>(() => {
    const minWidths = minWidthsKey.split(',').map(Number);
    const cols: GridColDef[] = declared.map(({ column, schema, Cell }, i) => ({
      field: `col${i}`,
      headerName: column.label ?? schema?.title ?? column.field,
      sortable: Boolean(sortable?.includes(column.field)),
      filterable: false,
      disableColumnMenu: true,
      // A width the user dragged wins; then a declared one; otherwise the column is at least as wide as its
      // content and shares the rest.
      ...(prefs.widths[column.field] ? { width: prefs.widths[column.field] } : column.width ? { width: column.width } : { flex: 1, minWidth: minWidths[i] }),
      valueGetter: (_value: unknown, row: GridValidRowModel) => getPath(row, column.field),
      renderCell: (params) => <GridCellContent Cell={Cell} value={params.value} row={params.row} column={column} schema={schema} />,
    }));
    if (hasActions) {
      cols.unshift({
        field: ACTIONS_FIELD,
        // The grid's actions column: its cell is no Tab stop of its own, the current button of the row is.
        type: 'actions',
        align: 'left',
        headerAlign: 'left',
        headerName: t('Actions'),
        width: actionsWidth,
        sortable: false,
        hideable: false,
        resizable: false,
        filterable: false,
        disableColumnMenu: true,
        renderCell: (params) => <ActionsCell id={params.id} row={params.row} tabIndex={params.tabIndex} />,
      });
    }
    return cols;
  }, [declared, minWidthsKey, hasActions, actionsWidth, sortable, prefs.widths]);
  const sortModel = useMemo(() => (sort ? toSortModel(declaredFields, sort) : []), [sort, declaredFields]);
  const apiRef = useGridApiRef();
  // A grid narrower than its columns hides the columns of lowest priority (list.columns[].priority), so the ones the
  // screen is used for stay in view without scrolling; they stay in the details row and the column chooser, and one
  // the user shows again there stays shown.
  const [gridWidth, setGridWidth] = useState(0);
  useLayoutEffect(() => apiRef.current?.subscribeEvent('resize', (size) => setGridWidth(Math.floor(size.width))), [apiRef]);
  const [shownByUser, setShownByUser] = useState<ReadonlySet<number>>(() => new Set());
  const autoHidden = useMemo(() => {
    if (!gridWidth) return new Set<number>();
    const minWidths = minWidthsKey.split(',').map(Number);
    const fitted = declared.map(({ column }, i) => ({
      priority: column.priority,
      width: prefs.hidden.includes(column.field) ? 0 : (prefs.widths[column.field] ?? column.width ?? minWidths[i]),
    }));
    return columnsToHide(fitted, gridWidth - (hasActions ? actionsWidth : 0) - SCROLLBAR_ROOM, shownByUser);
  }, [gridWidth, minWidthsKey, declared, prefs.hidden, prefs.widths, hasActions, actionsWidth, shownByUser]);
  const visibility = useMemo<GridColumnVisibilityModel>(
    () => Object.fromEntries(declaredFields.map((f, i) => [`col${i}`, !prefs.hidden.includes(f) && !autoHidden.has(i)])),
    [declaredFields, prefs.hidden, autoHidden],
  );
  const onSortModelChange = useCallback((model: GridSortModel) => sort?.onChange(fromSortModel(model, declaredFields, sort.sortable)), [sort, declaredFields]);
  const onColumnVisibilityModelChange = useCallback(
    (model: GridColumnVisibilityModel) => {
      const shown = declaredFields.flatMap((_, i) => (autoHidden.has(i) && model[`col${i}`] !== false ? [i] : []));
      if (shown.length) setShownByUser((kept) => new Set([...kept, ...shown]));
      updatePrefs((p) => ({ ...p, hidden: declaredFields.filter((_, i) => model[`col${i}`] === false && !autoHidden.has(i)) }));
    },
    [updatePrefs, declaredFields, autoHidden],
  );
  const onColumnWidthChange = useCallback(
    ({ colDef, width }: GridColumnResizeParams) => {
      const field = declaredFields[Number(colDef.field.replace(/^col/, ''))];
      if (colDef.field.startsWith('col') && field) updatePrefs((p) => ({ ...p, widths: { ...p.widths, [field]: Math.round(width) } }));
    },
    [updatePrefs, declaredFields],
  );
  const onDensityChange = useCallback((density: GridDensity) => updatePrefs((p) => ({ ...p, density })), [updatePrefs]);

  const highlight = manifest.list?.highlight;
  const getRowClassName = useCallback(
    ({ row }: { row: GridValidRowModel }) => {
      const index = highlight?.findIndex((h) => matches(row, h.when)) ?? -1;
      if (index < 0) return '';
      return `row-tone-${tones.get(highlight![index].tone, { file, path: `/list/highlight/${index}/tone` })}`;
    },
    [highlight, file],
  );
  const gridLocaleText = useGridLocaleText();
  // One object while nothing changes: a new localeText on every render would make the grid redo its state.
  const localeText = useMemo(() => ({ ...gridLocaleText, noRowsLabel: noRowsLabel ?? t('No records') }), [gridLocaleText, noRowsLabel]);

  // Row geometry lives outside React state: getRowHeight stays one function (a new one makes the grid re-render
  // every row), and a change asks the grid to read the heights again.
  const geometry = useRef({ estimate: detailsHeight(manifest), drawn: new Map<GridRowId, number>() });
  geometry.current.estimate = detailsHeight(manifest);
  const getRowHeight = useCallback(({ id, densityFactor }: { id: GridRowId; densityFactor: number }) => {
    if (!expanded.has(id)) return null;
    const { drawn, estimate } = geometry.current;
    return Math.floor(ROW_HEIGHT * densityFactor) + (drawn.get(id) ?? estimate);
  }, [expanded]);
  const measured = useCallback(
    (id: GridRowId, height: number) => {
      const { drawn, estimate } = geometry.current;
      const before = drawn.get(id) ?? estimate;
      drawn.set(id, height);
      if (height !== before && expanded.has(id)) apiRef.current?.resetRowHeights();
    },
    [apiRef, expanded],
  );
  // The bar of a fetch over the rows shown goes through the grid's API, not its `loading` prop: a new prop reaches every
  // row and cell through the grid's root props, so showing the bar and hiding it redrew the whole grid twice (on a
  // 500-row page, 197 -> 148 ms median from the Next click to the new rows painted, 7 alternating cold runs).
  useLayoutEffect(() => apiRef.current?.setLoading(loading || fetching), [apiRef, loading, fetching]);
  // A toggle re-reads the heights from its own click handler, so the grid redraws in the same pass as the row.
  useLayoutEffect(() => expanded.subscribe(() => apiRef.current?.resetRowHeights()), [apiRef, expanded]);
  // What waits for a list's first rows to be in the page (the live socket's code after a login) is told once they are.
  const empty = rows.length === 0;
  useEffect(() => {
    if (loading) return;
    if (empty) return void listRowsDrawn();
    return whenDrawn(document, '[role="gridcell"]', 3000, listRowsDrawn);
  }, [loading, empty]);
  const rowHeight = Math.floor(ROW_HEIGHT * DENSITY_FACTOR[prefs.density]);
  const ctx = useMemo(() => ({ manifest, rowHeight, expanded, measured, actions }), [manifest, rowHeight, expanded, measured, actions]);

  return (
    <DetailsContext.Provider value={ctx}>
      <DataGrid
        apiRef={apiRef}
        rows={rows}
        columns={columns}
        getRowId={rowIdOf}
        loading={loading}
        rowCount={rows.length}
        {...FIXED_GRID_PAGING}
        sortingMode="server"
        sortModel={sortModel}
        onSortModelChange={onSortModelChange}
        filterMode="server"
        // The panel's CSP has no 'unsafe-eval'; the grid would otherwise try `new Function` to speed up filtering.
        disableEval
        hideFooter
        disableRowSelectionOnClick
        disableColumnSelector={!preferencesKey}
        showToolbar={Boolean(preferencesKey)}
        columnVisibilityModel={visibility}
        onColumnVisibilityModelChange={onColumnVisibilityModelChange}
        onColumnWidthChange={onColumnWidthChange}
        density={prefs.density}
        onDensityChange={onDensityChange}
        rowHeight={ROW_HEIGHT}
        getRowHeight={getRowHeight}
        getRowClassName={getRowClassName}
        slots={GRID_SLOTS}
        localeText={localeText}
        disableVirtualization={disableVirtualization}
        sx={gridStyles}
      />
      {manifest.list?.details !== false && <DetailsWarmUp manifest={manifest} row={rows[0]} />}
    </DetailsContext.Provider>
  );
});
