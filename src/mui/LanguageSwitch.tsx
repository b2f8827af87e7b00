import Translate from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import { Suspense, useState } from 'react';
import { LANGS, loadLanguage, useLang, useT } from '../core/i18n/i18n';
import { eagerLazy } from './eager-lazy';
import { preloadModal } from './later/Modal';

// The menu's code (a popover, a modal, a focus trap, its items) was over a third of the login screen's own chunk: it
// loads when the pointer or the focus reaches the button, so it is here by the click (the modal under the menu with it:
// the build loads MUI's Modal later, src/mui/later/Modal.tsx).
const LanguageMenu = eagerLazy(() => import('./LanguageMenu'));
const preloadMenu = () => void Promise.all([LanguageMenu.preload(), preloadModal()]).catch(() => undefined);

/** The language of the panel: a small "EN"/"RU" button and a menu of the languages, each named in itself. */
export function LanguageSwitch({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) {
  const lang = useLang();
  const t = useT();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Drawn from the first opening on, so that closing it plays its transition.
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        color={color}
        startIcon={<Translate />}
        aria-haspopup="menu"
        // The name holds what the button shows ("EN"), as speech input users say it (WCAG 2.5.3).
        aria-label={t('Language: {code}', { code: lang.toUpperCase() })}
        title={t('Language')}
        data-testid="language-switch"
        sx={{ flexShrink: 0, minWidth: 0, px: 1 }}
        onPointerEnter={preloadMenu}
        onFocus={preloadMenu}
        onClick={(e) => {
          // The other languages' dictionaries load while the menu is open, so a pick switches at once.
          for (const l of LANGS) void loadLanguage(l.lang).catch(() => undefined);
          setOpened(true);
          setAnchor(e.currentTarget);
        }}
      >
        {lang.toUpperCase()}
      </Button>
      {opened && (
        // Its own boundary: while the code comes, the screen around stays as it is.
        <Suspense fallback={null}>
          <LanguageMenu anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
