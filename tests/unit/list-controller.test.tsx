// The headless list controller (src/core/list/use-list-controller.ts) without any MUI: the view kept in the URL,
// pages, sort and filters fetched from the real server, reload after a write, details and the form modal state.
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { SWRConfig } from 'swr';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createPanel, PanelContext, type Panel } from '../../src/core/app/panel';
import { preloadFirstPage } from '../../src/core/list/early-page';
import { useListController, type ListController } from '../../src/core/list/use-list-controller';
import { disconnectLive } from '../../src/core/live/live-store';
import { signIn, signOut } from '../../src/core/session/session';
import { api, adminToken, manifest, manifests, serverUrl } from './render';

const PREFIX = `ctl${Date.now().toString(36)}-`;
const names = Array.from({ length: 7 }, (_, i) => `${PREFIX}${String(i).padStart(2, '0')}`);

/** `seeRender` sees what each rendering of the controller answered. */
function setup(path: string, panel: Panel = createPanel({ backendUrl: serverUrl }, manifests()), seeRender?: (controller: ListController) => void) {
  signIn(adminToken, { email: 'admin@component.io', role: 'admin' });
  const seen = { search: '' };
  function Location() {
    seen.search = useLocation().search;
    return null;
  }
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <PanelContext.Provider value={panel}>
        <MemoryRouter initialEntries={[path]}>
          <Location />
          {children}
        </MemoryRouter>
      </PanelContext.Provider>
    </SWRConfig>
  );
  const hook = renderHook(
    () => {
      const controller = useListController(manifest('goal'));
      seeRender?.(controller);
      return controller;
    },
    { wrapper },
  );
  return { ...hook, seen };
}

const goalNames = (rows: Record<string, unknown>[]) => rows.map((r) => r.goalName);

describe('useListController', () => {
  beforeAll(async () => {
    for (const goalName of names) await api('POST', '/v1/admin/goalsAbtesting/add', { goalName });
  });

  it('reads page, size, sort and filters from the URL and fetches that page', async () => {
    const { result } = setup(`/goals?goalName=${PREFIX}&sort=goalName&order=desc&size=5&page=2`);
    expect(result.current.query).toMatchObject({ page: 2, size: 5, sortBy: 'goalName', sortOrder: 'desc', filters: { goalName: PREFIX } });
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.data!.count).toBe(7);
    expect(goalNames(result.current.rows)).toEqual([names[1], names[0]]);
    expect(result.current.filtered).toBe(true);
    expect(result.current.heading).toBe('Goals (A/B)');
  });

  it('changes page, size, sort and filters through the URL, back to page 1 where the view changes', async () => {
    const { result, seen } = setup(`/goals?goalName=${PREFIX}&size=5`);
    await waitFor(() => expect(result.current.rows).toHaveLength(5));
    act(() => result.current.setPage(2));
    await waitFor(() => expect(goalNames(result.current.rows)).toEqual([names[5], names[6]]));
    expect(new URLSearchParams(seen.search).get('page')).toBe('2');
    act(() => result.current.setSort('goalName', 'desc'));
    await waitFor(() => expect(goalNames(result.current.rows)[0]).toBe(names[6]));
    expect(Object.fromEntries(new URLSearchParams(seen.search))).toEqual({ goalName: PREFIX, size: '5', sort: 'goalName', order: 'desc' });
    act(() => result.current.setPageSize(20));
    await waitFor(() => expect(result.current.rows).toHaveLength(7));
    act(() => result.current.applyFilters({ goalName: `${PREFIX}03` }));
    await waitFor(() => expect(goalNames(result.current.rows)).toEqual([names[3]]));
    expect(result.current.draft).toEqual({ goalName: `${PREFIX}03` });
    act(() => result.current.clearFilters());
    await waitFor(() => expect(result.current.query.filters).toEqual({}));
    expect(result.current.draft).toEqual({});
    expect(result.current.filtered).toBe(false);
  });

  it('reload shows a record another call added, and applying the same filters again reloads', async () => {
    const { result } = setup(`/goals?goalName=${PREFIX}`);
    await waitFor(() => expect(result.current.data?.count).toBeGreaterThanOrEqual(7));
    const before = result.current.data!.count;
    await api('POST', '/v1/admin/goalsAbtesting/add', { goalName: `${PREFIX}late` });
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.data?.count).toBe(before + 1));
    await api('POST', '/v1/admin/goalsAbtesting/add', { goalName: `${PREFIX}later` });
    act(() => result.current.applyFilters({ goalName: PREFIX }));
    await waitFor(() => expect(result.current.data?.count).toBe(before + 2));
  });

  it('ends a reload overtaken by another with the later answer, not with the rows from before both', async () => {
    const { result } = setup(`/goals?goalName=${PREFIX}`);
    await waitFor(() => expect(result.current.data?.count).toBeGreaterThanOrEqual(7));
    const before = result.current.data!.count;
    await api('POST', '/v1/admin/goalsAbtesting/add', { goalName: `${PREFIX}overtaken` });
    // A delete's reload, then the socket's announcement of that delete reloading again before the first answer.
    const first = result.current.context.reload();
    const second = result.current.context.reload();
    // What the first one ends with is what a screen shows once it is over (the Undo notice's rows come back then).
    expect(((await first) as { count: number } | undefined)?.count).toBe(before + 1);
    await second;
    await waitFor(() => expect(result.current.data?.count).toBe(before + 1));
  });

  it('keeps which rows show details and which record the form modal holds', async () => {
    const { result } = setup('/goals');
    act(() => result.current.toggleDetails(4));
    act(() => result.current.toggleDetails(9));
    expect([...result.current.expanded]).toEqual([4, 9]);
    act(() => result.current.toggleDetails(4));
    expect([...result.current.expanded]).toEqual([9]);
    expect(result.current.modal).toBeNull();
    act(() => result.current.openForm(null));
    expect(result.current.modal).toEqual({ record: null, opened: 1 });
    act(() => result.current.openForm({ id: 3 }));
    expect(result.current.modal).toEqual({ record: { id: 3 }, opened: 2 });
    act(() => result.current.closeModal());
    expect(result.current.modal).toBeNull();
  });

  it('offers the calls the role may make, and refuses nothing for the admin', async () => {
    const { result } = setup('/goals');
    expect(result.current.listAction?.[1].path).toBe('/v1/admin/goalsAbtesting/get');
    expect(result.current.create?.[1].path).toBe('/v1/admin/goalsAbtesting/add');
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.refused).toBe(false);
  });

  // Last: the page asked for at login is the module's one early page.
  it('draws the page asked for at login in its first rendering, never validating or asking again; keeps it after that page stands in no longer, and reload asks the server', async () => {
    // No live socket: the goals the other tests added would reload the list through it.
    disconnectLive();
    signOut();
    const panel = createPanel({ backendUrl: serverUrl }, manifests());
    await preloadFirstPage(panel, manifest('goal'), 'admin', adminToken);
    const fetches = vi.spyOn(globalThis, 'fetch');
    const listCalls = () => fetches.mock.calls.filter(([url]) => String(url).includes('/v1/admin/goalsAbtesting/get')).length;
    try {
      const seen: { rows: number; validating: boolean }[] = [];
      const { result, rerender } = setup('/goals', panel, (c) => seen.push({ rows: c.rows.length, validating: c.isValidating }));
      expect(seen[0].rows).toBeGreaterThan(0);
      // The early page stands in for SWR's cache 2 s after the list took it (early-page.ts): the rows must outlive it.
      await new Promise((resolve) => setTimeout(resolve, 2200));
      rerender();
      expect(result.current.rows).toHaveLength(seen[0].rows);
      // SWR's check on mount turned isValidating on and off, drawing the screen twice more before its first paint.
      expect(seen.filter((s) => s.validating)).toEqual([]);
      expect(listCalls()).toBe(0);
      act(() => result.current.reload());
      await waitFor(() => expect(listCalls()).toBe(1));
      await waitFor(() => expect(result.current.isValidating).toBe(false));
      expect(result.current.rows).toHaveLength(seen[0].rows);
    } finally {
      fetches.mockRestore();
    }
  });
});
