// The generic list screen's declared actions, rendered in jsdom against the real server: the toggle switch,
// Delete All and Delete By Filter with their confirmations, and the JSON cell.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ListScreen } from '../../src/mui/ListScreen';
import { api, manifest, renderAsAdmin } from './render';
import { UNDO_MS } from '../../src/core/list/undoable-delete';

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
