// The generic list screen's declared actions, rendered in jsdom against the real server: the toggle switch,
// Delete All and Delete By Filter with their confirmations, and the JSON cell.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ListScreen } from '../../src/mui/ListScreen';
import { api, manifest, renderAsAdmin } from './render';
import { pendingDeletes, UNDO_MS } from '../../src/core/list/undoable-delete';
import { notices } from '../../src/core/app/notices';

type Gadget = { id: number; isActive: boolean; makerId: number };

async function maker(name: string): Promise<number> {
  return (await api<{ id: number }>('POST', '/v1/fx/maker/add', { name })).id;
}
async function gadget(body: Record<string, unknown>): Promise<Gadget> {
  return api<Gadget>('POST', '/v1/fx/gadget/add', body);
}
async function gadgets(params: Record<string, unknown> = {}): Promise<Gadget[]> {
  return (await api<{ rows: Gadget[] }>('GET', '/v1/fx/gadget/get', { pageSize: 1000, ...params })).rows;
}

function renderGadgets(path = '/gadgets') {
  return renderAsAdmin(<ListScreen manifest={manifest('gadget')} disableVirtualization />, { path, pattern: '/gadgets' });
}

describe('list screen actions', () => {
  beforeEach(async () => {
    await api('DELETE', '/v1/fx/gadget/destroyAll');
  });
  // A delete still waiting for its Undo when a case ends goes out as it would when the page is left, not into the next case.
  afterEach(() => pendingDeletes.get().forEach((p) => p.flush()));

  it('flips the Active switch through the toggle call, and the row shows the stored state', async () => {
    const id = await maker('Toggler');
    const row = await gadget({ makerId: id });
    renderGadgets();
    const toggle = await screen.findByRole('switch', { name: `Active ${row.id}` });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    await userEvent.click(toggle);
    await waitFor(() => expect((screen.getByRole('switch', { name: `Active ${row.id}` }) as HTMLInputElement).checked).toBe(true));
    expect((await gadgets()).find((g) => g.id === row.id)?.isActive).toBe(true);
  });

  it('disables the switch of a row whose refuseWhen rule matches, with the reason on hover', async () => {
    const id = await maker('Locker');
    const row = await gadget({ makerId: id, isLocked: true });
    renderGadgets();
    const toggle = await screen.findByRole('switch', { name: `Active ${row.id}` });
    expect((toggle as HTMLInputElement).disabled).toBe(true);
  });

  it('alerts "Fill some filter input" for Delete By Filter without a filter, and deletes nothing', async () => {
    const id = await maker('Keeper');
    await gadget({ makerId: id });
    renderGadgets();
    await screen.findByRole('switch', { name: /Active/ });
    await userEvent.click(screen.getByRole('button', { name: 'Delete By Filter' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Fill some filter input');
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(await gadgets()).toHaveLength(1);
  });

  it('deletes only the rows of the applied filter after "Delete gadgets by selecting filter?"', async () => {
    const gone = await maker('Gone');
    const kept = await maker('Kept');
    await gadget({ makerId: gone });
    await gadget({ makerId: gone });
    await gadget({ makerId: kept });
    renderGadgets(`/gadgets?makerId=${gone}`);
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Delete By Filter' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete gadgets by selecting filter?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    // The delete is sent once its Undo notice closes (UNDO_MS).
    // (Only this case's makers: another test file may add a gadget of its own meanwhile.)
    const mine = async () => (await gadgets()).map((g) => g.makerId).filter((m) => m === gone || m === kept);
    await waitFor(async () => expect(await mine()).toEqual([kept]), { timeout: UNDO_MS + 3_000 });
    await waitFor(() => expect(screen.queryAllByRole('switch')).toHaveLength(0));
  });

  it('never shows deleted rows from an earlier page after Clear', async () => {
    const gone = await maker('Stale');
    const kept = await maker('Fresh');
    await gadget({ makerId: gone });
    await gadget({ makerId: kept });
    renderGadgets();
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(2));
    await userEvent.type(screen.getByLabelText('makerId'), `${gone}{Enter}`);
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Delete By Filter' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryAllByRole('switch')).toHaveLength(0));
    // Every frame drawn after Clear is watched: the stale first page (2 rows) must never appear.
    let most = 0;
    const watch = new MutationObserver(() => (most = Math.max(most, document.querySelectorAll('input[role="switch"]').length)));
    watch.observe(document.body, { childList: true, subtree: true });
    await userEvent.click(await screen.findByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(1));
    watch.disconnect();
    expect(most).toBe(1);
  });

  it('keeps showing the rows a delete by filter does not take while its Undo notice waits', async () => {
    const gone = await maker('Goner');
    const kept = await maker('Keeper');
    await gadget({ makerId: gone });
    await gadget({ makerId: gone });
    await gadget({ makerId: kept });
    // A filter on a relation's field (maker.name, prefix): the rows carry it nested.
    renderGadgets('/gadgets?makerName=gon');
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Delete By Filter' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryAllByRole('switch')).toHaveLength(0));
    await userEvent.click(await screen.findByRole('button', { name: 'Clear' }));
    // The whole list again, before the delete is sent (it waits UNDO_MS for an Undo): the Keeper's gadget is there,
    // the Goner's are not.
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(1), { timeout: UNDO_MS / 2 });
    const mine = async () => (await gadgets()).map((g) => g.makerId).filter((m) => m === gone || m === kept);
    expect(await mine()).toEqual([gone, gone, kept]);
    await waitFor(async () => expect(await mine()).toEqual([kept]), { timeout: UNDO_MS + 3_000 });
    expect(screen.getAllByRole('switch')).toHaveLength(1);
  });

  it('keeps a second delete undoable after the first one is sent', async () => {
    const first = await maker('First');
    const second = await maker('Second');
    await gadget({ makerId: first });
    await gadget({ makerId: second });
    const mine = async () => (await gadgets()).map((g) => g.makerId).filter((m) => m === first || m === second);
    renderGadgets(`/gadgets?makerId=${first}`);
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(1));
    const deleteShown = async () => {
      await userEvent.click(screen.getByRole('button', { name: 'Delete By Filter' }));
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
      await waitFor(() => expect(screen.queryAllByRole('switch')).toHaveLength(0));
    };
    await deleteShown();
    await userEvent.clear(screen.getByLabelText('makerId'));
    await userEvent.type(screen.getByLabelText('makerId'), `${second}{Enter}`);
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(1));
    await deleteShown();
    // The first delete goes out when its notice times out, and its "Delete By Filter request status" notice comes.
    await waitFor(async () => expect(await mine()).toEqual([second]), { timeout: UNDO_MS + 3_000 });
    await waitFor(() => expect(notices.get().some((n) => n.text === 'Success')).toBe(true));
    // The second one's Undo notice is still there, and Undo keeps its gadget.
    const undo = notices.get().filter((n) => n.action?.label === 'Undo');
    expect(undo).toHaveLength(1);
    act(() => undo[0].action!.run());
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, UNDO_MS + 500));
    expect(await mine()).toEqual([second]);
  }, 20_000);

  it('keeps every row when "Delete all gadgets?" is cancelled, and empties the list on OK', async () => {
    const id = await maker('All');
    await gadget({ makerId: id });
    await gadget({ makerId: id });
    renderGadgets();
    await waitFor(() => expect(screen.getAllByRole('switch')).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Delete All Gadgets' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(await gadgets()).toHaveLength(2);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete All Gadgets' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryAllByRole('switch')).toHaveLength(0));
    await waitFor(async () => expect(await gadgets()).toHaveLength(0), { timeout: UNDO_MS + 3_000 });
  });

  it('shows a JSON field collapsed in the row and as a tree on demand', async () => {
    const id = await maker('Tree');
    await gadget({ makerId: id, tags: ['first-tag', 'second-tag'] });
    renderGadgets();
    await userEvent.click(await screen.findByRole('button', { name: 'Show Tags' }));
    const tree = await screen.findByRole('tree');
    expect(tree.textContent).toContain('"first-tag"');
    expect(tree.textContent).toContain('"second-tag"');
  });
});
