// The list screen's rehearsal (drawn hidden while the login screen waits): made-up rows of each column's type,
// drawn by the real list view with no session and no call to the server.
import { ThemeProvider } from '@mui/material/styles';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { afterEach, expect, test, vi } from 'vitest';
import { createPanel, PanelContext } from '../../src/core/app/panel';
import { rehearsalController, sampleRows } from '../../src/core/list/rehearsal';
import { signOut } from '../../src/core/session/session';
import { ListView } from '../../src/mui/ListScreen';
import { theme } from '../../src/mui/theme';
import { manifest, manifests, serverUrl } from './render';

afterEach(() => vi.restoreAllMocks());

test('made-up rows hold every listed column with a value of its type, relations as nested records', () => {
  const rows = sampleRows(manifest('gadget'), 3);
  expect(rows.map((r) => r.id)).toEqual([1, 2, 3]);
  for (const row of rows) {
    expect(typeof (row.maker as { name: unknown }).name).toBe('string');
    expect(Array.isArray(row.tags)).toBe(true);
    expect(typeof row.isActive).toBe('boolean');
  }
});

test('the list view draws a rehearsal controller without a session and sends nothing', async () => {
  signOut();
  const fetched = vi.spyOn(globalThis, 'fetch');
  const gadget = manifest('gadget');
  const controller = rehearsalController(gadget, manifests().fileOf('gadget'), 'admin', sampleRows(gadget, 2));
  render(
    <ThemeProvider theme={theme}>
      <SWRConfig value={{ provider: () => new Map() }}>
        <PanelContext.Provider value={createPanel({ backendUrl: serverUrl }, manifests())}>
          <MemoryRouter>
            <ListView controller={controller} disableVirtualization rehearsal />
          </MemoryRouter>
        </PanelContext.Provider>
      </SWRConfig>
    </ThemeProvider>,
  );
  const grid = await screen.findByRole('grid');
  expect(within(grid).getAllByRole('row')).toHaveLength(3);
  expect(within(grid).getByText('maker.name 2')).toBeTruthy();
  expect(screen.getByText('2 total')).toBeTruthy();
  expect(fetched).not.toHaveBeenCalled();
});
