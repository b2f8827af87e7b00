// The list screen's controller, with no drawing in it (in the manner of ra-core's useListController): the view
// in the URL (page, size, sort, filters), the page fetched and cached, the whole-list count of a heading, the
// filter box's draft, reload after writes, the rows whose details are open and the form modal's state.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import useSWR, { useSWRConfig } from 'swr';
import { actionOfKind } from '../access/access';
import { usePanel } from '../app/panel';
import type { ListResult } from '../http/data-provider';
import { HttpError } from '../http/http-error';
import { useLiveRefresh } from '../live/live-refresh';
import { missedChanges, useLiveList } from '../live/use-live-list';
import type { ActionDecl, Manifest, Role } from '../../../kernel/manifest/types';
import { session } from '../session/session';
import { useStore } from '../store';
import { countText } from './count';
import { callParamsOf, fillTemplate, type ListContextValue } from './list-context';
import { hasFilter, parseListQuery, toApiParams, toSearchParams, type ListQuery } from './list-query';
import { answeredFor, askAhead, dropAheadPages, earlyPageRows, fetchListPage, takeAheadPage, takeEarlyPage } from './early-page';
import { ExpandedRows, type RowId } from './expanded-rows';
import { useStableCallback } from './stable-callback';
import { listStateKey, readListState, writeListState } from './list-state';
import { pendingDeletes, withoutPendingDeletes } from './undoable-delete';

export type Row = Record<string, unknown>;

/** The rows before the first page arrives: one array, so the grid does not take each render for new rows. */
const NO_ROWS: Row[] = [];

/** The form modal: the record edited (null to add one); `opened` counts openings so a reopen remounts the form. */
export interface ModalState {
  record: Row | null;
  opened: number;
}

export interface ListController {
  manifest: Manifest;
  /** The manifest's file, for registry errors. */
  file: string;
  role: Role;
  /** The signed-in staff member's e-mail (per-user preferences). */
  email: string;
  query: ListQuery;
  setQuery(next: ListQuery): void;
  routeParams: Record<string, string | undefined>;
  callParams: Record<string, string>;
  /** The list call's parameters of the current view (filters, sort, page), as sent to the server. */
  apiParams: Record<string, unknown>;
  /** The calls of the generic screen this role may make. */
  listAction?: [string, ActionDecl];
  create?: [string, ActionDecl];
  update?: [string, ActionDecl];
  destroy?: [string, ActionDecl];
  hasForm: boolean;
  data?: ListResult<Row>;
  rows: Row[];
  error?: Error;
  /** A 4xx other than 401: the route asked for something that is not there, retrying cannot help. */
  refused: boolean;
  isLoading: boolean;
  isValidating: boolean;
  /** Whether a filter is applied. */
  filtered: boolean;
  /** The screen's heading with {count} and route parameters filled, or the manifest's title. */
  heading: string;
  /** Refetches the page and the count, and marks every other cached page of this list stale. */
  reload(): void;
  draft: Record<string, string>;
  setDraft(draft: Record<string, string>): void;
  /** Applies filters (back to page 1); the same filters again reload. */
  applyFilters(filters: Record<string, string>): void;
  clearFilters(): void;
  setPage(page: number): void;
  setPageSize(size: number): void;
  setSort(sortBy: string | null, sortOrder?: 'asc' | 'desc'): void;
  /** The rows whose details are open: one store for the screen's life, so a toggle re-renders that row only. */
  expanded: ExpandedRows;
  toggleDetails(id: RowId): void;
  modal: ModalState | null;
  openForm(record: Row | null): void;
  closeModal(): void;
  /** What the pieces of the screen share (ListContext). */
  context: ListContextValue;
}

/** The calls of the generic list screen `role` may make (one object per manifest and role where memoised). */
export function listCallsOf(manifest: Manifest, role: Role): Pick<ListController, 'listAction' | 'create' | 'update' | 'destroy'> {
  return {
    listAction: actionOfKind(manifest, 'list', role),
    create: actionOfKind(manifest, 'create', role),
    update: actionOfKind(manifest, 'update', role),
    destroy: actionOfKind(manifest, 'destroy', role),
  };
}

/** Whether the list's records open in a form: the generic one (declared fields) or the manifest's override. */
export const hasFormOf = (manifest: Manifest): boolean => Boolean(manifest.form?.fields?.length || manifest.form?.override);

/** The controller of the list screen of `manifest`; a MUI (or any) view only draws what it returns. */
export function useListController(manifest: Manifest): ListController {
  const panel = usePanel();
  const file = panel.manifests.fileOf(manifest.entity);
  const { role, email } = useStore(session).user!;
  const list = manifest.list;
  const [urlSearch, setSearch] = useSearchParams();
  // Coming back to a list by a URL without a view shows the view the user left it with (list-state.ts).
  const stateKey = listStateKey(email, manifest.entity);
  const [stored, setStored] = useState(() => (urlSearch.size ? null : { key: stateKey, search: readListState(stateKey) }));
  const restoring = stored !== null && stored.key === stateKey && stored.search !== '' && urlSearch.size === 0;
  const search = useMemo(() => (restoring ? new URLSearchParams(stored.search) : urlSearch), [restoring, stored, urlSearch]);
  useEffect(() => {
    if (restoring) return void setSearch(new URLSearchParams(stored.search), { replace: true });
    // Once the URL holds the view, restoring is over: a view the user later clears back to the default stays cleared.
    if (stored && urlSearch.size) setStored(null);
    writeListState(stateKey, urlSearch);
  }, [restoring, stored, urlSearch, stateKey, setSearch]);
  const query = useMemo(() => parseListQuery(search, list), [search, list]);
  const routeParams = useParams();
  const callParamsKey = JSON.stringify(callParamsOf(manifest, routeParams));
  const callParams = useMemo(() => JSON.parse(callParamsKey) as Record<string, string>, [callParamsKey]);

  // One object per manifest and role: the screen's memoised pieces (the row actions, the grid's columns) depend on them.
  const { listAction, create, update, destroy } = useMemo(() => listCallsOf(manifest, role), [manifest, role]);
  const hasForm = hasFormOf(manifest);

  const apiParams = { ...callParams, ...toApiParams(query) };
  const paramsKey = JSON.stringify(apiParams);
  // A new view (page, size, sort, filters) asks for its rows at once (early-page.ts askAhead): the URL commits in a
  // transition, and the list would ask only once the screen has rendered with it. `after` is the cursor it pages with.
  const setQuery = useCallback(
    (next: ListQuery, after?: string) => {
      const search = toSearchParams(next, list);
      const params = { ...callParams, ...toApiParams(parseListQuery(search, list)) };
      const key = JSON.stringify(params);
      if (listAction && key !== paramsKey) askAhead(panel, listAction[1], after ? { ...params, after } : params, key);
      setSearch(search);
    },
    [setSearch, list, callParams, listAction, paramsKey, panel],
  );
  // Moving to the next page sends the cursor the page before answered (`after`): the server then reads only the
  // page's rows however deep it is. The page number goes too, so the count and the pager stay what they were.
  const [cursor, setCursor] = useState<{ key: string; after: string } | null>(null);
  const after = cursor?.key === paramsKey ? cursor.after : undefined;
  // The page asked for at login, unless the socket has since announced a change of the entity it missed; once it is
  // here the first drawing shows its rows.
  const early = listAction && !after && !missedChanges(manifest.entity);
  const earlyRows = early ? earlyPageRows<Row>(listAction[1].path, paramsKey) : undefined;
  const { data, error, isLoading, isValidating, mutate } = useSWR<ListResult<Row>>(
    listAction ? [listAction[1].path, paramsKey] : null,
    () =>
      takeAheadPage<Row>(listAction![1].path, paramsKey) ||
      (!after && !missedChanges(manifest.entity) && takeEarlyPage<Row>(listAction![1].path, paramsKey)) ||
      fetchListPage<Row>(panel, listAction![1], after ? { ...apiParams, after } : apiParams, paramsKey),
    {
      keepPreviousData: true,
      revalidateOnFocus: false,
      fallbackData: earlyRows,
      // Rows that are here already are drawn as they are: SWR's check on mount (in the first frame's animation
      // callbacks) drew the whole screen twice more before that frame was painted, to turn isValidating on and off.
      revalidateOnMount: earlyRows ? false : undefined,
    },
  );
  // Once they are drawn they go into SWR's cache, and the early page is taken: it stands in no longer.
  const listPath = listAction?.[1].path;
  useEffect(() => {
    if (!earlyRows || !listPath) return;
    takeEarlyPage(listPath, paramsKey);
    void mutate((cached) => cached ?? earlyRows, { revalidate: false });
  }, [earlyRows, listPath, paramsKey, mutate]);
  // Rows deleted behind an Undo notice are gone from the list while it waits (undoable-delete.ts).
  const pending = useStore(pendingDeletes);
  const fetchedRows = data?.rows ?? NO_ROWS;
  const rows = useMemo(() => withoutPendingDeletes(manifest.entity, fetchedRows, pending), [manifest.entity, fetchedRows, pending]);
  // The counts leave out those rows too: "1 total" above "No records" read as a list that lost a record.
  const waiting = fetchedRows.length - rows.length;
  const counted = useMemo(() => (data && waiting ? { ...data, count: Math.max(0, data.count - waiting) } : data), [data, waiting]);
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
  // The reloads under way. A reload started while another is on its way supersedes it: SWR then ends the first one
  // with the rows it had before (a delete's reload, overtaken by the socket's announcement of that delete, showed the
  // deleted rows again until the second answer came). So a reload is over only when none is left on its way.
  const [reloading] = useState(() => new Set<Promise<ListResult<Row> | undefined>>());
  const reloadView = useCallback(async () => {
    if (listPath) dropAheadPages(listPath);
    void mutateAll((key) => Array.isArray(key) && key[0] === listPath && key[1] !== paramsKey, undefined, { revalidate: false });
    void mutateTotal();
    const mine = mutate();
    reloading.add(mine);
    let data: ListResult<Row> | undefined;
    try {
      data = await mine;
    } finally {
      reloading.delete(mine);
    }
    // Each ends with the rows cached when it ended: the one that ends last has the newest.
    while (reloading.size) for (const ended of await Promise.allSettled([...reloading])) if (ended.status === 'fulfilled') data = ended.value;
    return data;
  }, [mutate, mutateAll, mutateTotal, listPath, paramsKey, reloading]);
  // The pieces of the screen get the promise (a delete's rows stay hidden until the page is here again); callers of
  // the controller get nothing to await, as before.
  const reloadAndWait = useStableCallback(reloadView);
  const reload = useCallback(() => void reloadAndWait(), [reloadAndWait]);
  useLiveRefresh(manifest.screen?.liveRefresh, reload);
  // A screen that follows its own live item (pipelines) already reloads on every change of its entity the socket
  // hears; the changes it missed while it was not listening come only as entity changes.
  useLiveList(manifest.entity, reload, { missedOnly: Boolean(manifest.screen?.liveRefresh) });

  const [draft, setDraft] = useState<Record<string, string>>(query.filters);
  const appliedKey = JSON.stringify(query.filters);
  // The URL commits in a transition, after the box's own apply or Clear: by then the user may have typed on or
  // cleared, so the box takes the URL's filters only when they come from elsewhere (back, forward, a link).
  // Each commit of a navigation settles the box's writes up to the one it shows (several may land at once).
  const ownWrites = useRef<string[]>([]);
  const shownKey = useRef(appliedKey);
  const { key: locationKey } = useLocation();
  useEffect(() => {
    const own = ownWrites.current.lastIndexOf(appliedKey);
    if (appliedKey !== shownKey.current && own < 0) setDraft(JSON.parse(appliedKey) as Record<string, string>);
    shownKey.current = appliedKey;
    ownWrites.current = own < 0 ? [] : ownWrites.current.slice(own + 1);
  }, [appliedKey, locationKey]);
  /** Filters as the URL will hold them (no empty ones, in the manifest's order): what appliedKey becomes. */
  const keyOf = useCallback((filters: Record<string, string>) => JSON.stringify(parseListQuery(toSearchParams({ ...query, filters }, list), list).filters), [query, list]);
  const writeFilters = useCallback(
    (filters: Record<string, string>) => {
      setDraft(filters);
      const key = keyOf(filters);
      if (key !== appliedKey) ownWrites.current.push(key);
      setQuery({ ...query, filters, page: 1 });
    },
    [appliedKey, keyOf, setQuery, query],
  );
  const applyFilters = useStableCallback((filters: Record<string, string>) => (keyOf(filters) === appliedKey ? reload() : writeFilters(filters)));
  const clearFilters = useCallback(() => writeFilters({}), [writeFilters]);
  const setPage = useCallback(
    (page: number) => {
      const next = data?.next && page === query.page + 1 && answeredFor.get(data) === paramsKey ? data.next : undefined;
      setCursor(next ? { key: JSON.stringify({ ...callParams, ...toApiParams({ ...query, page }) }), after: next } : null);
      setQuery({ ...query, page }, next);
    },
    [setQuery, query, data, paramsKey, callParams],
  );
  const setPageSize = useCallback((size: number) => setQuery({ ...query, size, page: 1 }), [setQuery, query]);
  const setSort = useCallback(
    (sortBy: string | null, sortOrder?: 'asc' | 'desc') => setQuery({ ...query, sortBy, sortOrder: sortOrder ?? query.sortOrder, page: 1 }),
    [setQuery, query],
  );

  const [expanded] = useState(() => new ExpandedRows());
  const toggleDetails = expanded.toggle;

  const [modal, setModal] = useState<ModalState | null>(null);
  const openForm = useCallback((record: Row | null) => setModal((prev) => ({ record, opened: (prev?.opened ?? 0) + 1 })), []);
  const closeModal = useCallback(() => setModal(null), []);

  // The applied filters as one object while they stay the same (a new page parses the URL into new objects).
  const appliedFilters = useMemo(() => JSON.parse(appliedKey) as Record<string, string>, [appliedKey]);
  const context = useMemo<ListContextValue>(
    () => ({ manifest, file, role, callParams, appliedFilters, draftFilters: draft, applyFilters, reload: reloadAndWait }),
    [manifest, file, role, callParams, appliedFilters, draft, applyFilters, reloadAndWait],
  );
  // The whole list's count as the unfiltered page answered it, kept while a filter's count call is on its way (and
  // while Clear's page is): the heading went "4 users" -> "… users" -> "4 users" at every filter.
  const answeredHere = data !== undefined && answeredFor.get(data) === paramsKey;
  const [whole, setWhole] = useState<{ key: string; data: ListResult<Row> }>();
  if (!filtered && answeredHere && (whole?.key !== totalKey || whole.data !== data)) setWhole({ key: totalKey, data });
  const known = whole?.key === totalKey ? whole.data : undefined;
  const shownTotal = filtered ? (total ?? known) : answeredHere ? counted : (known ?? counted);
  const heading =
    manifest.screen?.heading && !refused
      ? fillTemplate(manifest.screen.heading, { ...routeParams, count: shownTotal ? countText(shownTotal) : '…' })
      : manifest.title;

  return {
    manifest, file, role, email, query, setQuery, routeParams, callParams, apiParams, listAction, create, update, destroy, hasForm,
    data: counted, rows, error, refused, isLoading, isValidating, filtered, heading, reload,
    draft, setDraft, applyFilters, clearFilters, setPage, setPageSize, setSort,
    expanded, toggleDetails, modal, openForm, closeModal, context,
  };
}
