// The list controller moves to the next page with the cursor the page it shows answered (`after`), so the server
// reads only that page's rows; any other move (back, a jump, another order) asks by page number alone. The rows
// and the pager's count are those of the page number either way.
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPanel, PanelContext } from '../../src/core/app/panel';
import type { ActionDecl } from '../../kernel/manifest/types';
import { useListController } from '../../src/core/list/use-list-controller';
import { disconnectLive } from '../../src/core/live/live-store';
import { signIn, signOut } from '../../src/core/session/session';
import { api, adminToken, manifest, manifests, serverUrl } from './render';

const PREFIX = `cur${Date.now().toString(36)}-`;
const names = Array.from({ length: 12 }, (_, i) => `${PREFIX}${String(i).padStart(2, '0')}`);

function setup(path: string) {
  const panel = createPanel({ backendUrl: serverUrl }, manifests());
  signIn(adminToken, { email: 'admin@component.io', role: 'admin' });
  // Every list call the controller makes, with its parameters, as it reaches the real server.
  const sent: Record<string, unknown>[] = [];
  const list = panel.provider.list.bind(panel.provider);
  panel.provider.list = (action: ActionDecl, params?: Record<string, unknown>) => {
    sent.push({ ...params });
    return list(action, params as never);
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <PanelContext.Provider value={panel}>
        <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
      </PanelContext.Provider>
    </SWRConfig>
  );
  return { ...renderHook(() => useListController(manifest('goal')), { wrapper }), sent };
}

const goalNames = (rows: Record<string, unknown>[]) => rows.map((r) => r.goalName);

describe('the list controller and the next-page cursor', () => {
  beforeAll(async () => {
    for (const goalName of names) await api('POST', '/v1/admin/goalsAbtesting/add', { goalName });
  });

  it('sends the cursor only for the page after the one shown, with the same rows and count as the page number', async () => {
    const { result, sent } = setup(`/goals?goalName=${PREFIX}&size=5&sort=goalName`);
    await waitFor(() => expect(result.current.rows).toHaveLength(5));
    expect(result.current.data!.next).toEqual(expect.any(String));
    /** Moves to a page and waits for the call it makes (a page fetched before shows from the cache first). */
    const moveTo = async (page: number, rows: string[]) => {
      const calls = sent.length;
      act(() => result.current.setPage(page));
      await waitFor(() => expect(sent.length).toBeGreaterThan(calls));
      await waitFor(() => expect(goalNames(result.current.rows)).toEqual(rows));
      expect(result.current.data!.count).toBe(12);
      return sent.at(-1)!;
    };
    expect(await moveTo(2, names.slice(5, 10))).toMatchObject({ page: 2, after: expect.any(String) });
    expect(await moveTo(3, names.slice(10))).toMatchObject({ page: 3, after: expect.any(String) });
    // Back, and a jump: by page number alone.
    const back = await moveTo(1, names.slice(0, 5));
    expect(back).toMatchObject({ page: 1 });
    expect(back).not.toHaveProperty('after');
    const jump = await moveTo(3, names.slice(10));
    expect(jump).toMatchObject({ page: 3 });
    expect(jump).not.toHaveProperty('after');
  });

  it('asks for a new page, size or order the moment it is chosen, before the screen renders with it, and only once', async () => {
    // No live socket: the goals added above would reload the list through it, asking once more.
    disconnectLive();
    signOut();
    const { result, sent } = setup(`/goals?goalName=${PREFIX}&size=5&sort=goalName`);
    await waitFor(() => expect(result.current.rows).toHaveLength(5));
    /** Chooses a view and checks its call left within the choice (the URL, and the render, come after it). */
    const choose = async (change: () => void, rows: string[], params: Record<string, unknown>) => {
      const calls = sent.length;
      act(() => {
        change();
        expect(sent).toHaveLength(calls + 1);
      });
      expect(sent.at(-1)).toMatchObject(params);
      await waitFor(() => expect(goalNames(result.current.rows)).toEqual(rows));
      // The screen took that answer: it did not ask again.
      expect(sent).toHaveLength(calls + 1);
    };
    await choose(() => result.current.setPage(2), names.slice(5, 10), { page: 2, pageSize: 5, after: expect.any(String) });
    await choose(() => result.current.setSort('goalName', 'desc'), [...names].reverse().slice(0, 5), { page: 1, sortOrder: 'desc' });
    await choose(() => result.current.setPageSize(20), [...names].reverse(), { page: 1, pageSize: 20, sortOrder: 'desc' });
    // A reload asks afresh.
    const calls = sent.length;
    act(() => result.current.reload());
    await waitFor(() => expect(sent).toHaveLength(calls + 1));
  });
});
