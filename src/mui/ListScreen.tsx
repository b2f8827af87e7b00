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
import type { GridRowId } from '@mui/x-data-grid';
import { useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import useSWR, { useSWRConfig } from 'swr';
import { actionOfKind } from '../core/access/access';
import { usePanel } from '../core/app/panel';
import type { ListResult } from '../core/http/data-provider';
import { HttpError } from '../core/http/http-error';
import { hasFilter, parseListQuery, toApiParams, toSearchParams, type ListQuery } from '../core/list/list-query';
import { countText, pagerCount, pagerLabel } from '../core/list/count';
import { callParamsOf, fillTemplate, ListContext, type ListContextValue } from '../core/list/list-context';
import { useLiveRefresh } from '../core/live/live-refresh';
import type { ActionDecl, Role } from '../core/manifest/types';
import { ActionButton, placeOf } from './actions/ActionButtons';
import { fieldLabel } from '../core/manifest/fields';
import type { Manifest } from '../core/manifest/types';
import { session } from '../core/session/session';
import { useStore } from '../core/store';
import type { FormOverrideProps } from '../registry/override-types';
import { formOverrides, rowActionOverrides, toolbarOverrides } from '../registry/screens';
import { DataTable } from './DataTable';
import { FilterBar } from './FilterBar';

type Row = Record<string, unknown>;

/** The generic form's code loads on the first modal open, or earlier when the browser is idle after a list renders. */
const loadFormModal = () => import('./FormModal');

function whenIdle(fn: () => void) {
  const w = window as Window & { requestIdleCallback?: (cb: () => void) => number };
  if (w.requestIdleCallback) w.requestIdleCallback(fn);
  else setTimeout(fn, 200);
}

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
  return Object.entries(manifest.actions).filter(([, a]) => placeOf(a) === place && a.roles.includes(role));
}

/** SPEC "Shared pattern of list screens", driven by one manifest; the view lives in the URL. */
export function ListScreen({ manifest, disableVirtualization }: { manifest: Manifest; /** jsdom has no layout. */ disableVirtualization?: boolean }) {
  const panel = usePanel();
  const file = panel.manifests.fileOf(manifest.entity);
  const role = useStore(session).user!.role;
  const list = manifest.list;
  const [search, setSearch] = useSearchParams();
  const query = useMemo(() => parseListQuery(search, list), [search, list]);
  const setQuery = useCallback((next: ListQuery) => setSearch(toSearchParams(next, list)), [setSearch, list]);
  const routeParams = useParams();
  const callParamsKey = JSON.stringify(callParamsOf(manifest, routeParams));
  const callParams = useMemo(() => JSON.parse(callParamsKey) as Record<string, string>, [callParamsKey]);

  const listAction = actionOfKind(manifest, 'list', role);
  const create = actionOfKind(manifest, 'create', role);
  const update = actionOfKind(manifest, 'update', role);
  const destroy = actionOfKind(manifest, 'destroy', role);
  const hasForm = Boolean(manifest.form?.fields?.length || manifest.form?.override);

  const apiParams = { ...callParams, ...toApiParams(query) };
  const paramsKey = JSON.stringify(apiParams);
  const { data, error, isLoading, isValidating, mutate } = useSWR<ListResult<Row>>(
    listAction ? [listAction[1].path, paramsKey] : null,
    () => panel.provider.list<Row>(listAction![1], apiParams),
    { keepPreviousData: true, revalidateOnFocus: false },
  );
  const rows = data?.rows ?? [];
  // A heading's {count} is the whole list of the screen (the collection's users), whatever the filters show.
  const countsAll = Boolean(manifest.screen?.heading?.includes('{count}'));
  const filtered = hasFilter(query.filters);
  const totalKey = JSON.stringify({ ...callParams, page: 1, pageSize: 1 });
  const { data: total, mutate: mutateTotal } = useSWR<ListResult<Row>>(
    listAction && countsAll && filtered ? ['count', listAction[1].path, totalKey] : null,
    () => panel.provider.list<Row>(listAction![1], { ...callParams, page: 1, pageSize: 1 }),
    { revalidateOnFocus: false },
  );
  // A 4xx on a list is about what the route asked for (no such collection, an id that is not a number): retrying cannot help.
  const refused = error instanceof HttpError && error.status >= 400 && error.status < 500 && error.status !== 401;
  // After a write every cached page of this list is stale, not only the one on screen (a later Clear would show it).
  const { mutate: mutateAll } = useSWRConfig();
  const listPath = listAction?.[1].path;
  const reload = useCallback(() => {
    void mutateAll((key) => Array.isArray(key) && key[0] === listPath && key[1] !== paramsKey, undefined, { revalidate: false });
    void mutate();
    void mutateTotal();
  }, [mutate, mutateAll, mutateTotal, listPath, paramsKey]);
  useLiveRefresh(manifest.screen?.liveRefresh, reload);

  const [draft, setDraft] = useState<Record<string, string>>(query.filters);
  const appliedKey = JSON.stringify(query.filters);
  useEffect(() => setDraft(JSON.parse(appliedKey) as Record<string, string>), [appliedKey]);

  const [expanded, setExpanded] = useState<ReadonlySet<GridRowId>>(new Set());
  const toggleDetails = useCallback((id: GridRowId) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);

  // `opened` counts the openings, so a reload after a stale edit remounts the form on the current record.
  const [modal, setModal] = useState<{ record: Row | null; opened: number } | null>(null);
  const [FormModal, setFormModal] = useState<ComponentType<FormOverrideProps> | null>(null);
  const formOverride = manifest.form?.override ? formOverrides.get(manifest.form.override, { file, path: '/form/override' }) : null;
  const openForm = useCallback(
    (record: Row | null) => {
      setModal((prev) => ({ record, opened: (prev?.opened ?? 0) + 1 }));
      if (!formOverride && !FormModal) void loadFormModal().then((m) => setFormModal(() => m.default));
    },
    [formOverride, FormModal],
  );
  useEffect(() => {
    if (data && hasForm && (create || update)) whenIdle(() => void loadFormModal());
  }, [data, hasForm, create, update]);

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
      const open = expanded.has(id);
      return (
        <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', height: '100%' }}>
          {showDetails && (
            <Tooltip title={open ? 'Hide details' : 'Details'}>
              <IconButton size="small" aria-label="Details" aria-expanded={open} onClick={() => toggleDetails(id)}>
                {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
              </IconButton>
            </Tooltip>
          )}
          {canEdit && (
            <Tooltip title="Edit">
              <IconButton size="small" aria-label="Edit" color="primary" onClick={() => openForm(row)}>
                <EditOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {destroy && <ActionButton name={destroy[0]} action={destroy[1]} row={row} icon={<DeleteOutline fontSize="small" />} />}
          {rowCalls.map(([name, action]) => callButton(name, action, row))}
          {download && (
            <Tooltip title={download.label ?? 'Download'}>
              <IconButton size="small" aria-label={download.label ?? 'Download'} onClick={() => downloadJson(row, download.field, download.filename)}>
                <Download fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {rowLinks.map((link) => (
            <Tooltip key={link.to} title={link.label}>
              <IconButton size="small" aria-label={link.label} component={RouterLink} to={fillTemplate(link.to, row)}>
                <OpenInNew fontSize="small" />
              </IconButton>
            </Tooltip>
          ))}
          {rowOverrides.map((Piece, i) => (
            <Piece key={i} manifest={manifest} role={role} reload={reload} row={row} />
          ))}
        </Stack>
      );
    };
    // rowOverrides is derived from the manifest, which the deps already hold.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [buttons, expanded, destroy, showDetails, canEdit, toggleDetails, openForm, manifest, role, reload, file]);

  const toolbar = (manifest.screen?.toolbar ?? []).map((n, i) => toolbarOverrides.get(n, { file, path: `/screen/toolbar/${i}` }));
  const toolbarCalls = placed(manifest, role, 'toolbar');
  /** A declared call placed in the toolbar or (with a row) in the row: its `ui.override`, else the generic button. */
  function callButton(name: string, action: ActionDecl, row?: Row) {
    if (!action.ui?.override) return <ActionButton key={name} name={name} action={action} row={row} />;
    const registry = row ? rowActionOverrides : toolbarOverrides;
    const Piece = registry.get(action.ui.override, { file, path: `/actions/${name}/ui/override` });
    return <Piece key={name} manifest={manifest} role={role} reload={reload} row={row} />;
  }
  const applyFilters = useCallback(
    (filters: Record<string, string>) => {
      if (JSON.stringify(filters) === appliedKey) reload();
      else setQuery({ ...query, filters, page: 1 });
    },
    [appliedKey, reload, setQuery, query],
  );
  const context = useMemo<ListContextValue>(
    () => ({ manifest, file, role, callParams, appliedFilters: query.filters, draftFilters: draft, applyFilters, reload }),
    [manifest, file, role, callParams, query.filters, draft, applyFilters, reload],
  );
  const shownTotal = filtered ? total : data;
  const heading =
    manifest.screen?.heading && !refused
      ? fillTemplate(manifest.screen.heading, { ...routeParams, count: shownTotal ? countText(shownTotal) : '…' })
      : manifest.title;
  const sizes = list?.pageSizes ?? [];
  const sortable = list?.sortable ?? [];
  const Form = formOverride ?? FormModal;

  return (
    <ListContext.Provider value={context}>
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
            {heading}
            {data && !manifest.screen?.heading && (
              <Typography component="span" color="text.secondary" sx={{ ml: 1.5, fontSize: 16 }} data-testid="list-count">
                {countText(data)} total
              </Typography>
            )}
          </Typography>
          {toolbarCalls.map(([name, action]) => callButton(name, action))}
          {toolbar.map((Piece, i) => (
            <Piece key={i} manifest={manifest} role={role} reload={reload} />
          ))}
          <Tooltip title="Reload">
            <IconButton aria-label="Reload" onClick={reload}>
              <RefreshIcon />
            </IconButton>
          </Tooltip>
          {create && hasForm && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
              {create[1].ui?.label ?? 'Add'}
            </Button>
          )}
        </Stack>

        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap sx={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
            <FilterBar
              manifest={manifest}
              file={file}
              draft={draft}
              applied={query.filters}
              onDraft={setDraft}
              onApply={(next) => applyFilters(next ?? draft)}
              onClear={() => {
                setDraft({});
                setQuery({ ...query, filters: {}, page: 1 });
              }}
            />
            {sortable.length > 0 && (
              <Stack direction="row" spacing={1.5}>
                <TextField
                  select
                  size="small"
                  label="Sort by"
                  value={query.sortBy ?? 'none'}
                  onChange={(e) => setQuery({ ...query, sortBy: e.target.value === 'none' ? null : e.target.value, page: 1 })}
                  sx={{ minWidth: 160 }}
                  slotProps={{ select: { inputProps: { 'data-testid': 'sort-by' } } }}
                >
                  <MenuItem value="none">none</MenuItem>
                  {sortable.map((f) => (
                    <MenuItem key={f} value={f}>
                      {fieldLabel(manifest, f)}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  size="small"
                  label="Order"
                  disabled={!query.sortBy}
                  value={query.sortOrder}
                  onChange={(e) => setQuery({ ...query, sortOrder: e.target.value as 'asc' | 'desc', page: 1 })}
                  sx={{ minWidth: 110 }}
                >
                  <MenuItem value="asc">asc</MenuItem>
                  <MenuItem value="desc">desc</MenuItem>
                </TextField>
              </Stack>
            )}
          </Stack>
        </Paper>

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
                Retry
              </Button>
            }
          >
            Could not load {manifest.title}: {error instanceof Error ? error.message : String(error)}
          </Alert>
        )}

        <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
          <Box sx={{ height: 'max(420px, calc(100vh - 330px))' }}>
            <DataTable
              manifest={manifest}
              file={file}
              rows={rows}
              loading={isLoading || (isValidating && !data)}
              expanded={expanded}
              renderActions={renderActions}
              actionsWidth={Math.max(92, buttons * 38 + 16)}
              noRowsLabel={refused ? error.message : error ? 'Could not load the list' : 'No records'}
              disableVirtualization={disableVirtualization}
            />
          </Box>
          <TablePagination
            component="div"
            count={pagerCount(data)}
            page={data && (data.countCapped || (query.page - 1) * query.size < Math.max(data.count, 1)) ? query.page - 1 : 0}
            labelDisplayedRows={pagerLabel(data)}
            rowsPerPage={query.size}
            rowsPerPageOptions={sizes.length > 1 ? sizes : []}
            onPageChange={(_, page) => setQuery({ ...query, page: page + 1 })}
            onRowsPerPageChange={(e) => setQuery({ ...query, size: Number(e.target.value), page: 1 })}
            sx={{ borderTop: 1, borderColor: 'divider' }}
          />
        </Paper>

        {modal && Form && (
          <Form
            key={modal.opened}
            manifest={manifest}
            role={role}
            record={modal.record}
            open
            onClose={() => setModal(null)}
            onSaved={() => {
              setModal(null);
              reload();
            }}
            onReload={(current) => {
              openForm(current);
              reload();
            }}
          />
        )}
      </Stack>
    </ListContext.Provider>
  );
}
