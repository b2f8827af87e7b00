// Nothing blanks the panel: a screen whose cell cannot be drawn shows what failed in place of the screen while
// the shell's menu still leads to the other screens, and a form whose widget cannot be drawn shows the failure
// inside its modal, over a list that keeps working.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { screens } from '../../src/core/access/access';
import type { Manifest } from '../../kernel/manifest/types';
import EntityScreen from '../../src/mui/EntityScreen';
import Shell from '../../src/mui/Shell';
import { manifests, renderRoutesAsAdmin } from './render';

/** The panel's routes inside the shell, with the Platforms manifest replaced by `platform`. */
function renderPanel(platform: Manifest, path = '/platforms') {
  return renderRoutesAsAdmin(
    <Route element={<Shell />}>
      {screens(manifests().all).map((m) => (
        <Route key={m.entity} path={m.screen!.route.replace(/^\//, '') || undefined} index={m.screen!.route === '/' || undefined} element={<EntityScreen manifest={m.entity === 'platform' ? platform : m} />} />
      ))}
    </Route>,
    path,
  );
}

const platformWith = (change: (m: Manifest) => void): Manifest => {
  const copy = structuredClone(manifests().byEntity.get('platform')!);
  change(copy);
  return copy;
};

describe('error boundaries', () => {
  it('shows what failed in place of a screen whose cell cannot be drawn, and the menu still works', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = platformWith((m) => {
      m.list!.columns![1].cell = 'nosuchcell';
    });
    renderPanel(broken);
    const failure = await screen.findByTestId('error-boundary');
    expect(failure.textContent).toContain('The Platforms screen could not be shown');
    expect(failure.textContent).toContain('Unknown cell "nosuchcell" in schemas/platform.json at /list/columns/1/cell');
    // A dev build (as this test runs) also names the manifest and the component that threw.
    expect(screen.getByTestId('error-boundary-where').textContent).toContain('Manifest: schemas/platform.json');
    // jsdom measures no widths, so the whole menu sits under "More".
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('button', { name: 'More' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Goals' }));
    expect(await screen.findByRole('heading', { name: /Goals/ }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByTestId('error-boundary')).toBeNull();
  }, 30_000);

  it('shows the failure of a form widget inside its modal, and Close returns to the working list', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = platformWith((m) => {
      m.form!.ui!.maxVersion.widget = 'nosuchwidget';
    });
    renderPanel(broken);
    await userEvent.click(await screen.findByRole('button', { name: 'Add' }));
    // The form's code loads on the first opening.
    const dialog = await screen.findByRole('dialog', {}, { timeout: 15_000 });
    const failure = within(dialog).getByTestId('error-boundary');
    expect(failure.textContent).toContain('The form could not be shown');
    expect(failure.textContent).toContain('Unknown widget "nosuchwidget" in schemas/platform.json at /form/ui/maxVersion/widget');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('heading', { name: /Platforms/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  }, 30_000);
});
