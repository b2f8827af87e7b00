// The generic modal form (lookup select, OK gate, the call it makes) and the data provider's 401 handling,
// in jsdom against the real server.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { notices } from '../../src/core/app/notices';
import { createPanel } from '../../src/core/app/panel';
import { session, signIn } from '../../src/core/session/session';
import FormModal from '../../src/mui/FormModal';
import { api, manifest, manifests, renderAsAdmin, serverUrl } from './render';

describe('generic form modal', () => {
  it('offers the makers by name, keeps OK disabled until one is chosen, and adds the gadget with its id', async () => {
    const { id } = await api<{ id: number }>('POST', '/v1/fx/maker/add', { name: 'Lookup Maker' });
    const onSaved = vi.fn();
    renderAsAdmin(<FormModal manifest={manifest('gadget')} role="admin" record={null} open onClose={() => undefined} onSaved={onSaved} />);
    const ok = await screen.findByRole('button', { name: 'OK' });
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByLabelText(/Maker/));
    await userEvent.click(await screen.findByRole('option', { name: `${id} — Lookup Maker` }));
    await waitFor(() => expect((ok as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(ok);
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const rows = (await api<{ rows: { makerId: number }[] }>('GET', '/v1/fx/gadget/get', { makerId: id })).rows;
    expect(rows).toHaveLength(1);
  });
});

describe('the OK gate of a form checks formats, not only presence', () => {
  it('keeps OK disabled for 256.1.1.1, 1.2.3.4/33 and 1.2.3 in the tester IP form, and enables it for 10.0.0.1', async () => {
    renderAsAdmin(<FormModal manifest={manifest('testerIP')} role="admin" record={null} open onClose={() => undefined} onSaved={() => undefined} />);
    const ok = (await screen.findByRole('button', { name: 'OK' })) as HTMLButtonElement;
    await userEvent.click(screen.getByLabelText(/Vendor/));
    await userEvent.click(await screen.findByRole('option', { name: 'samsung' }));
    const ip = screen.getByLabelText(/^IP/);
    for (const bad of ['256.1.1.1', '1.2.3.4/33', '1.2.3']) {
      await userEvent.clear(ip);
      await userEvent.type(ip, bad);
      await waitFor(() => expect(ok.disabled).toBe(true));
    }
    await userEvent.clear(ip);
    await userEvent.type(ip, '10.0.0.1');
    await waitFor(() => expect(ok.disabled).toBe(false));
  });
});

describe('data provider', () => {
  it('on a 401 while a token is held, notifies "You need to login again" with "Error" and logs out', async () => {
    const panel = createPanel({ backendUrl: serverUrl }, manifests());
    signIn('a-token-the-server-never-issued', { email: 'ghost@x.io', role: 'admin' });
    await expect(panel.provider.request('GET', '/v1/admin/platform/get')).rejects.toThrow();
    expect(notices.get().some((n) => n.title === 'You need to login again' && n.text === 'Error')).toBe(true);
    expect(session.get().token).toBeNull();
  });

  it('treats a non-200 answer as a failure carrying the server message', async () => {
    const panel = createPanel({ backendUrl: serverUrl }, manifests());
    await expect(panel.provider.request('POST', '/v1/user/login', { email: 'nobody@x.io', password: 'wrong-password' })).rejects.toThrow(
      'Wrong e-mail or password',
    );
  });
});
