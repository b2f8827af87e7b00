// The stand-ins the build swaps in for MUI's popups (vite.config.ts laterModules): a lookup field is drawn at once
// holding its value's label, read-only, then takes input as the real autocomplete; a popper draws only once opened.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import Autocomplete from '../../src/mui/later/Autocomplete';
import Popper from '../../src/mui/later/Popper';
import { preloadLaterModules } from '../../src/mui/later/later';

const options = [
  { id: 1, label: '1 — aurora' },
  { id: 2, label: '2 — nordtv' },
];

function Lookup() {
  const [value, setValue] = useState<(typeof options)[number] | null>(options[0]);
  return <Autocomplete options={options} value={value} onChange={(_, next) => setValue(next)} renderInput={(params) => <TextField {...params} label="Whitelabel" />} />;
}

describe('modules loaded later', () => {
  it('draws a lookup field at once with its value, read-only, and then lets the user pick another record', async () => {
    render(<Lookup />);
    const field = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Whitelabel' });
    expect([field().value, field().readOnly]).toEqual(['1 — aurora', true]);
    await expect.poll(() => field().readOnly, { timeout: 5000 }).toBe(false);
    expect(field().value).toBe('1 — aurora');
    await userEvent.click(field());
    await userEvent.click(await screen.findByRole('option', { name: '2 — nordtv' }));
    expect(field().value).toBe('2 — nordtv');
  });

  it('draws a closed popper as nothing, and an open one with its content', async () => {
    preloadLaterModules();
    const anchor = document.createElement('div');
    document.body.append(anchor);
    const { rerender } = render(
      <Popper open={false} anchorEl={anchor}>
        <p>menu items</p>
      </Popper>,
    );
    expect(screen.queryByText('menu items')).toBeNull();
    rerender(
      <Popper open anchorEl={anchor}>
        <p>menu items</p>
      </Popper>,
    );
    expect((await screen.findByText('menu items')).isConnected).toBe(true);
  });
});
