// A refused save marks every field the server named in one answer (`fields` of the failure), not only the
// notice's first sentence, and a mark goes once its field is changed.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import FormModal from '../../src/mui/FormModal';
import { api, manifest, renderAsAdmin } from './render';

describe('server field errors in the generic form', () => {
  it('marks both taken fields of one ERR_UNIQUE answer at their fields, and clears a mark when its value changes', async () => {
    await api('POST', '/v1/fx/part/add', { code: 'P-100', serial: 'SN-100' });
    const onSaved = vi.fn();
    renderAsAdmin(<FormModal manifest={manifest('part')} role="admin" record={null} open onClose={() => undefined} onSaved={onSaved} />);
    const dialog = await screen.findByRole('dialog');
    const code = within(dialog).getByLabelText(/^Code/);
    const serial = within(dialog).getByLabelText(/^Serial/);
    await userEvent.type(code, 'P-100');
    await userEvent.type(serial, 'SN-100');
    const ok = within(dialog).getByRole('button', { name: 'OK' }) as HTMLButtonElement;
    await waitFor(() => expect(ok.disabled).toBe(false));
    await userEvent.click(ok);

    await within(dialog).findByText('Code is already taken');
    expect(within(dialog).getByText('Serial is already taken')).toBeTruthy();
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(serial.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByTestId('form-error').textContent).toBe('Error Code is already taken');
    expect(onSaved).not.toHaveBeenCalled();

    await userEvent.type(code, 'X');
    await waitFor(() => expect(within(dialog).queryByText('Code is already taken')).toBeNull());
    expect(within(dialog).getByText('Serial is already taken')).toBeTruthy();
  }, 30_000);
});
