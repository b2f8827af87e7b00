import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Box from '@mui/material/Box';
import { useEffect } from 'react';
import { closeShortcutsHelp, openShortcutsHelp, shortcutOf, shortcutsHelp, SHORTCUTS, type ShortcutAction } from '../core/shortcuts';
import { useT } from '../core/i18n/i18n';
import { useStore } from '../core/store';

/** Marks the element a shortcut presses: `data-shortcut="add"` on a list's Add, `"submit"` on a modal's OK. */
export const shortcutTarget = (action: 'add' | 'submit') => ({ 'data-shortcut': action });

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.getAttribute('role') === 'combobox';
}

function openDialogs(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[role="dialog"], [role="alertdialog"]')].filter((d) => d.closest('[aria-hidden="true"]') === null);
}

function run(action: ShortcutAction): boolean {
  if (action === 'help') {
    openShortcutsHelp();
    return true;
  }
  if (action === 'submit') {
    const dialogs = openDialogs();
    const ok = dialogs[dialogs.length - 1]?.querySelector<HTMLButtonElement>('[data-shortcut="submit"]');
    if (!ok || ok.disabled) return false;
    ok.click();
    return true;
  }
  if (action === 'filter') {
    const field = document.querySelector<HTMLElement>('main [role="search"] input:not([disabled]), main [role="search"] [role="combobox"]');
    field?.focus();
    return Boolean(field);
  }
  const add = document.querySelector<HTMLButtonElement>('main [data-shortcut="add"]');
  if (!add || add.disabled) return false;
  add.click();
  return true;
}

/**
 * The shell's keyboard shortcuts (src/core/shortcuts.ts) and their list, opened with `?`. Esc closing a form or
 * menu is MUI's own; it is listed here so users find it.
 */
export function KeyboardShortcuts() {
  const open = useStore(shortcutsHelp);
  const t = useT();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const action = shortcutOf({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, typing: typingIn(e.target), inDialog: openDialogs().length > 0 });
      if (action && run(action)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog open={open} onClose={closeShortcutsHelp} aria-labelledby="shortcuts-title" maxWidth="xs" fullWidth>
      <DialogTitle id="shortcuts-title">{t('Keyboard shortcuts')}</DialogTitle>
      <DialogContent>
        <Table size="small" aria-label={t('Keyboard shortcuts')}>
          <TableBody>
            {SHORTCUTS.map((s) => (
              <TableRow key={s.keys}>
                <TableCell sx={{ width: 110 }}>
                  <Box component="kbd" sx={{ px: 0.75, py: 0.25, border: 1, borderColor: 'divider', borderRadius: 1, fontFamily: 'monospace', fontSize: 13 }}>
                    {s.keys}
                  </Box>
                </TableCell>
                <TableCell>{s.does(t)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
    </Dialog>
  );
}
