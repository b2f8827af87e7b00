import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import RefreshIcon from '@mui/icons-material/Refresh';
import Download from '@mui/icons-material/FileDownloadOutlined';
import OpenInNew from '@mui/icons-material/InfoOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { GridRowId } from '@mui/x-data-grid';
import { memo, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { Link as RouterLink } from 'react-router';
import { canCall } from '../core/access/can-call';
import { onIdle } from '../core/idle';
import { PanelContext } from '../core/app/panel';
import { fillTemplate, ListContext } from '../core/list/list-context';
import { useListController, type ListController } from '../core/list/use-list-controller';
import type { ActionDecl, Role } from '../../kernel/manifest/types';
import { countText, pagerCount, pagerLabel } from '../core/list/count';
import { ActionButton, placeOf } from './actions/ActionButtons';
import { fieldLabel } from '../../kernel/manifest/fields';
import type { Manifest } from '../../kernel/manifest/types';
import type { FormOverrideProps } from '../registry/override-types';
import { formOverrides, rowActionOverrides, toolbarOverrides } from '../registry/screens';
import { DataTable, useRowExpanded } from './DataTable';
import { ErrorBoundary } from './ErrorBoundary';
import { LazyTooltip } from './LazyTooltip';
import { FilterBar } from './FilterBar';
import { warmUpForm } from './FormWarmUp';
import { whenQuiet } from './when-drawn';
import { ExportButton } from './ExportButton';
import { gridPreferencesKey } from './grid/grid-preferences';
import type { ListSort } from './grid/sort-model';
import { t } from '../core/i18n/i18n';

type Row = Record<string, unknown>;

/** A form override that can fetch its code ahead of its first opening (overrides/lazy-form.tsx). */
type FormComponent = ComponentType<FormOverrideProps> & { preload?: () => Promise<unknown> };

/**
 * The generic form's code loads on the first modal open, or earlier when the browser is idle after a list renders.
 * The loaded component is kept here and drawn directly: a Suspense fallback would make React 19 hold the form
 * back for ~300 ms (DESIGN 6).
 */
let loadedFormModal: ComponentType<FormOverrideProps> | null = null;
const loadFormModal = () =>
  import('./FormModal').then((m) => {
    loadedFormModal = m.default;
    return m.default;
  });

const whenIdle = (fn: () => void) => void onIdle(fn, undefined, 200);

const NO_SIZES: number[] = [];

/** The entities whose form was drawn unseen on this page (FormWarmUp.tsx): once is enough. */
const warmedForms = new Set<string>();
/** How long the user leaves a list alone before its form is drawn unseen. */
const WARM_UP_QUIET_MS = 1000;

/** The row's buttons side by side, 2px apart (Stack spacing 0.25). */
const ROW_ACTIONS_STYLE = { display: 'flex', alignItems: 'center', gap: 2, height: '100%' } as const;

/** A row's details button; re-renders when that row opens or closes only. */
function DetailsToggle({ id, onToggle }: { id: GridRowId; onToggle: (id: GridRowId) => void }) {
  const open = useRowExpanded(id);
  return (
    <LazyTooltip title={open ? t('Hide details') : t('Details')}>
      <IconButton size="small" aria-label={t('Details')} aria-expanded={open} onClick={() => onToggle(id)}>
        {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </IconButton>
    </LazyTooltip>
  );
}

interface PagerProps {
  count: number;
  /** Whether the server capped the count ("10,000+"). */
  capped: boolean;
  /** The page shown, from 0. */
  page: number;
  size: number;
  sizes: number[];
  onPage(page: number): void;
  onSize(size: number): void;
}

/**
 * The list's pager, drawn again only when what it shows changes: its "next page" tooltip stays open after a click,
 * and an open tooltip re-measures the page's layout on each of its renders (with a new page of rows, twice over).
 */
const Pager = memo(function Pager({ count, capped, page, size, sizes, onPage, onSize }: PagerProps) {
  const label = useMemo(() => pagerLabel({ count, countCapped: capped }), [count, capped]);
  return (
    <TablePagination
      component="div"
      count={pagerCount({ count, countCapped: capped })}
      page={page}
      labelDisplayedRows={label}
      rowsPerPage={size}
      rowsPerPageOptions={sizes.length > 1 ? sizes : NO_SIZES}
      onPageChange={(_, next) => onPage(next)}
      onRowsPerPageChange={(e) => onSize(Number(e.target.value))}
      sx={{ borderTop: 1, borderColor: 'divider' }}
    />
  );
});

/** Saves one field of a row as a pretty-printed JSON file (`list.download`). */
function downloadJson(row: Row, field: string, template: string | undefined) {
  const blob = new Blob([JSON.stringify(row[field] ?? null, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fillTemplate(template ?? `${field}-{id}.json`, row);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The declared calls a role may make from one place (toolbar or row), in manifest order. */
function placed(manifest: Manifest, role: Role, place: 'toolbar' | 'row'): [string, ActionDecl][] {
  return Object.entries(manifest.actions).filter(([, a]) => placeOf(a) === place && canCall(manifest, a, role));
}

/** A declared call placed in the toolbar or (with a row) in the row: its `ui.override`, else the generic button. */
function callButton({ name, action, row, manifest, role, reload, file }: { name: string; action: ActionDecl; row?: Row; manifest: Manifest; role: Role; reload: () => void; file: string }) {
  if (!action.ui?.override) return <ActionButton key={name} name={name} action={action} row={row} />;
  const registry = row ? rowActionOverrides : toolbarOverrides;
  const Piece = registry.get(action.ui.override, { file, path: `/actions/${name}/ui/override` });
  return <Piece key={name} manifest={manifest} role={role} reload={reload} row={row} />;
}

interface ListHeaderProps {
  manifest: Manifest;
  role: Role;
  file: string;
  heading: string;
  /** "1,200 total" beside a heading of the manifest's title, once a page answered. */
  total?: string;
  reload: () => void;
  listAction?: ActionDecl;
  /** The list call's parameters of the view, without its page (what the export sends). */
  exportParams: Record<string, unknown>;
  /** The Add button's label, when the role may add. */
  addLabel?: string;
  onAdd: () => void;
}

/**
 * The heading and the toolbar, drawn again only when what they show changes: a new page of rows left them as they
 * were, yet each of their `sx` styles was serialised again and each closed tooltip ran its hooks (issue 34, 500 rows).
 */
const ListHeader = memo(function ListHeader({ manifest, role, file, heading, total, reload, listAction, exportParams, addLabel, onAdd }: ListHeaderProps) {
  const toolbar = (manifest.screen?.toolbar ?? []).map((n, i) => toolbarOverrides.get(n, { file, path: `/screen/toolbar/${i}` }));
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
      <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
        {heading}
        {total !== undefined && (
          <Typography component="span" color="text.secondary" sx={{ ml: 1.5, fontSize: 16 }} data-testid="list-count">
            {total}
          </Typography>
        )}
      </Typography>
      {placed(manifest, role, 'toolbar').map(([name, action]) => callButton({ name, action, manifest, role, reload, file }))}
      {toolbar.map((Piece, i) => (
        <Piece key={i} manifest={manifest} role={role} reload={reload} />
      ))}
      {listAction && <ExportButton manifest={manifest} listAction={listAction} params={exportParams} />}
      <Tooltip title={t('Reload')}>
        <IconButton aria-label={t('Reload')} onClick={reload}>
          <RefreshIcon />
        </IconButton>
      </Tooltip>
      {addLabel !== undefined && (
        <Button variant="contained" startIcon={<AddIcon />} onClick={onAdd} data-shortcut="add">
          {addLabel}
        </Button>
      )}
    </Stack>
  );
});

interface ListFiltersProps {
  manifest: Manifest;
  file: string;
  draft: Record<string, string>;
  applied: Record<string, string>;
  sortable: string[];
  sortBy: string | null;
  sortOrder: 'asc' | 'desc';
  onDraft(draft: Record<string, string>): void;
  onApply(next?: Record<string, string>): void;
  onClear(): void;
  onSort(sortBy: string | null, sortOrder?: 'asc' | 'desc'): void;
}

/** The filter box and the sort selects, drawn again only when the filters or the sort change (not with each page). */
const ListFilters = memo(function ListFilters({ manifest, file, draft, applied, sortable, sortBy, sortOrder, onDraft, onApply, onClear, onSort }: ListFiltersProps) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap sx={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <FilterBar manifest={manifest} file={file} draft={draft} applied={applied} onDraft={onDraft} onApply={onApply} onClear={onClear} />
        {sortable.length > 0 && (
          <Stack direction="row" spacing={1.5}>
            <TextField
              select
              size="small"
              label={t('Sort by')}
              value={sortBy ?? 'none'}
              onChange={(e) => onSort(e.target.value === 'none' ? null : e.target.value)}
              sx={{ minWidth: 160 }}
              slotProps={{ select: { inputProps: { 'data-testid': 'sort-by' } } }}
            >
              <MenuItem value="none">{t('none')}</MenuItem>
              {sortable.map((f) => (
                <MenuItem key={f} value={f}>
                  {fieldLabel(manifest, f)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={t('Order')}
              disabled={!sortBy}
              value={sortOrder}
              onChange={(e) => onSort(sortBy, e.target.value as 'asc' | 'desc')}
              sx={{ minWidth: 110 }}
            >
              <MenuItem value="asc">{t('asc')}</MenuItem>
              <MenuItem value="desc">{t('desc')}</MenuItem>
            </TextField>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
});

/** SPEC "Shared pattern of list screens", driven by one manifest; the view lives in the URL. */
export function ListScreen({ manifest, disableVirtualization }: { manifest: Manifest; /** jsdom has no layout. */ disableVirtualization?: boolean }) {
  return <ListView controller={useListController(manifest)} disableVirtualization={disableVirtualization} />;
}

interface ListViewProps {
  controller: ListController;
  /** jsdom has no layout. */
  disableVirtualization?: boolean;
  /** Drawn hidden ahead of use (panel-code's rehearsal): it fetches no code of its own. */
  rehearsal?: boolean;
}

/** The list screen as its controller describes it: draws, and calls the controller for everything else. */
export function ListView({ controller, disableVirtualization, rehearsal }: ListViewProps) {
  const { manifest, file, role, query, create, update, destroy, hasForm, data, rows, error, refused, isLoading, isValidating } = controller;
  const { reload, draft, expanded, toggleDetails, modal, context, heading, openForm: openModal } = controller;
  const { email: userKey } = controller;
  const list = manifest.list;

  const [, setFormLoaded] = useState(false);
  const formOverride: FormComponent | null = manifest.form?.override ? formOverrides.get(manifest.form.override, { file, path: '/form/override' }) : null;
  const openForm = useCallback(
    (record: Row | null) => {
      openModal(record);
      // (The form drawn now runs its code: no need to draw it unseen later.)
      warmedForms.add(manifest.entity);
      if (!formOverride && !loadedFormModal) void loadFormModal().then(() => setFormLoaded(true));
    },
    [openModal, formOverride, manifest.entity],
  );
  const mayOpenForm = Boolean(data && hasForm && (create || update));
  // The form's code comes when the browser is idle after the list drew; the generic form is then drawn once unseen
  // (FormWarmUp.tsx) once the user leaves the page alone for a moment: an edit form of the first row where the role
  // may edit, else the add form, once per entity and page load.
  const panel = useContext(PanelContext);
  const theme = useTheme();
  const warmUp = useRef({ rows, modal });
  warmUp.current = { rows, modal };
  useEffect(() => {
    if (!mayOpenForm || rehearsal) return;
    let cancel = () => {};
    let over = false;
    whenIdle(() => {
      if (over) return;
      if (formOverride) return void formOverride.preload?.();
      void loadFormModal().then((Form) => {
        if (over || !panel || warmedForms.has(manifest.entity)) return;
        cancel = whenQuiet(WARM_UP_QUIET_MS, (finished) => {
          const { rows: shown, modal: open } = warmUp.current;
          const record = update && shown[0] ? shown[0] : null;
          // A form the user opened warmed up its code itself.
          if (open || (!record && !create) || warmedForms.has(manifest.entity)) return null;
          const drawn = () => {
            warmedForms.add(manifest.entity);
            finished();
          };
          return warmUpForm(Form, { panel, theme, manifest, role, record, onDrawn: drawn });
        });
      });
    });
    return () => {
      over = true;
      cancel();
    };
  }, [mayOpenForm, formOverride, rehearsal, panel, theme, manifest, role, update, create]);

  const rowOverrides = (manifest.screen?.rowActions ?? []).map((n, i) => rowActionOverrides.get(n, { file, path: `/screen/rowActions/${i}` }));
  const rowCalls = placed(manifest, role, 'row').filter(([, a]) => a !== destroy?.[1]);
  const rowLinks = manifest.screen?.rowLinks ?? [];
  const download = list?.download;
  const showDetails = list?.details !== false;
  const canEdit = Boolean(update && hasForm);
  const buttons =
    Number(showDetails) + Number(canEdit) + Number(Boolean(destroy)) + rowOverrides.length + rowCalls.length + rowLinks.length + Number(Boolean(download));
  const renderActions = useMemo(() => {
    if (buttons === 0) return null;
    return (row: Row) => {
      const id = row.id as GridRowId;
      return (
        // A plain box with a constant style: an `sx` here would be serialised again for every row drawn.
        <div style={ROW_ACTIONS_STYLE}>
          {showDetails && <DetailsToggle id={id} onToggle={toggleDetails} />}
          {canEdit && (
            <LazyTooltip title={t('Edit')}>
              <IconButton size="small" aria-label={t('Edit')} color="primary" onClick={() => openForm(row)}>
                <EditOutlined fontSize="small" />
              </IconButton>
            </LazyTooltip>
          )}
          {destroy && <ActionButton name={destroy[0]} action={destroy[1]} row={row} icon={<DeleteOutline fontSize="small" />} />}
          {rowCalls.map(([name, action]) => callButton({ name, action, row, manifest, role, reload, file }))}
          {download && (
            <LazyTooltip title={download.label ?? t('Download')}>
              <IconButton size="small" aria-label={download.label ?? t('Download')} onClick={() => downloadJson(row, download.field, download.filename)}>
                <Download fontSize="small" />
              </IconButton>
            </LazyTooltip>
          )}
          {rowLinks.map((link) => (
            <LazyTooltip key={link.to} title={link.label}>
              <IconButton size="small" aria-label={link.label} component={RouterLink} to={fillTemplate(link.to, row)}>
                <OpenInNew fontSize="small" />
              </IconButton>
            </LazyTooltip>
          ))}
          {rowOverrides.map((Piece, i) => (
            <Piece key={i} manifest={manifest} role={role} reload={reload} row={row} />
          ))}
        </div>
      );
    };
    // rowOverrides is derived from the manifest, which the deps already hold.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [buttons, destroy, showDetails, canEdit, toggleDetails, openForm, manifest, role, reload, file]);

  const sizes = list?.pageSizes ?? NO_SIZES;
  // The pager's, the filter box's and the sort's handlers stay the same functions while the controller's change with
  // each page and answer (the memo pieces above are not drawn again for a new page).
  const latest = useRef(controller);
  useLayoutEffect(() => {
    latest.current = controller;
  });
  const onPage = useCallback((page: number) => latest.current.setPage(page + 1), []);
  const onDraft = useCallback((next: Record<string, string>) => latest.current.setDraft(next), []);
  const onApply = useCallback((next?: Record<string, string>) => latest.current.applyFilters(next ?? latest.current.draft), []);
  const onClear = useCallback(() => latest.current.clearFilters(), []);
  const onSort = useCallback((by: string | null, order?: 'asc' | 'desc') => latest.current.setSort(by, order), []);
  const onAdd = useCallback(() => openForm(null), [openForm]);
  // The export's parameters stay one object while the view but its page stays the same.
  const { page: _page, pageSize: _size, ...view } = controller.apiParams;
  const viewKey = JSON.stringify(view);
  const exportParams = useMemo(() => JSON.parse(viewKey) as Record<string, unknown>, [viewKey]);
  const onSize = useCallback((size: number) => latest.current.setPageSize(size), []);
  const sortable = useMemo(() => list?.sortable ?? [], [list]);
  // A header click sorts like the "Sort by" select: the same URL state.
  // The setter goes through `latest` too: the controller's changes with each page, and a new sort would redraw the grid.
  const { sortBy, sortOrder } = query;
  const gridSort = useMemo(
    () => ({ by: sortBy, order: sortOrder, sortable, onChange: (next: ListSort) => latest.current.setSort(next.by, next.order) }),
    [sortBy, sortOrder, sortable],
  );
  const Form = formOverride ?? loadedFormModal;

  return (
    <ListContext.Provider value={context}>
      <Stack spacing={2}>
        <ListHeader
          manifest={manifest}
          role={role}
          file={file}
          heading={heading}
          total={data && !manifest.screen?.heading ? t('{count} total', { count: countText(data) }) : undefined}
          reload={reload}
          listAction={controller.listAction?.[1]}
          exportParams={exportParams}
          addLabel={create && hasForm ? (create[1].ui?.label ?? t('Add')) : undefined}
          onAdd={onAdd}
        />
        <ListFilters
          manifest={manifest}
          file={file}
          draft={draft}
          applied={context.appliedFilters}
          sortable={sortable}
          sortBy={query.sortBy}
          sortOrder={query.sortOrder}
          onDraft={onDraft}
          onApply={onApply}
          onClear={onClear}
          onSort={onSort}
        />

        {error && refused && (
          <Alert severity="warning" data-testid="list-refused">
            {error.message}
          </Alert>
        )}
        {error && !refused && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={reload}>
                {t('Retry')}
              </Button>
            }
          >
            {t('Could not load {title}: {message}', { title: manifest.title, message: error instanceof Error ? error.message : String(error) })}
          </Alert>
        )}

        <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
          <Box sx={{ height: 'max(420px, calc(100vh - 330px))', position: 'relative' }}>
            <DataTable
              manifest={manifest}
              file={file}
              rows={rows}
              loading={!data && (isLoading || isValidating)}
              fetching={Boolean(data) && isLoading}
              expanded={expanded}
              renderActions={renderActions}
              actionsWidth={Math.max(104, buttons * 38 + 16)}
              noRowsLabel={refused ? error!.message : error ? t('Could not load the list') : controller.filtered ? t('No records match the filters') : t('No records')}
              disableVirtualization={disableVirtualization}
              sort={gridSort}
              preferencesKey={gridPreferencesKey(userKey, manifest.entity)}
            />
            {controller.filtered && data && !error && rows.length === 0 && (
              // Under the grid's own "No records match the filters" (centred below the toolbar and the header row).
              <Box sx={{ position: 'absolute', left: 0, right: 0, top: 'calc(50% + 72px)', display: 'flex', justifyContent: 'center' }}>
                <Button variant="outlined" onClick={controller.clearFilters}>
                  {t('Clear filters')}
                </Button>
              </Box>
            )}
          </Box>
          <Pager
            count={data?.count ?? 0}
            capped={Boolean(data?.countCapped)}
            page={data && (data.countCapped || (query.page - 1) * query.size < Math.max(data.count, 1)) ? query.page - 1 : 0}
            size={query.size}
            sizes={sizes}
            onPage={onPage}
            onSize={onSize}
          />
        </Paper>

        {modal && Form && (
          <ErrorBoundary key={modal.opened} what={t('The form')} file={file} onClose={controller.closeModal}>
          <Form
            key={modal.opened}
            manifest={manifest}
            role={role}
            record={modal.record}
            open
            onClose={controller.closeModal}
            onSaved={() => {
              controller.closeModal();
              reload();
            }}
            onReload={(current) => {
              openForm(current);
              reload();
            }}
          />
          </ErrorBoundary>
        )}
      </Stack>
    </ListContext.Provider>
  );
}
