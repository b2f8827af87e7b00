import Check from '@mui/icons-material/Check';
import Translate from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { LANGS, loadLanguage, setLang, useLang, useT } from '../core/i18n/i18n';

/** The language of the panel: a small "EN"/"RU" button and a menu of the languages, each named in itself. */
export function LanguageSwitch({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) {
  const lang = useLang();
  const t = useT();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        color={color}
        startIcon={<Translate />}
        aria-haspopup="menu"
        aria-label={t('Language')}
        title={t('Language')}
        data-testid="language-switch"
        sx={{ flexShrink: 0, minWidth: 0, px: 1 }}
        onClick={(e) => {
          // The other languages' dictionaries load while the menu is open, so a pick switches at once.
          for (const l of LANGS) void loadLanguage(l.lang).catch(() => undefined);
          setAnchor(e.currentTarget);
        }}
      >
        {lang.toUpperCase()}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGS.map((l) => (
          <MenuItem
            key={l.lang}
            lang={l.lang}
            selected={l.lang === lang}
            onClick={() => {
              void setLang(l.lang);
              setAnchor(null);
            }}
          >
            <ListItemIcon>{l.lang === lang && <Check fontSize="small" />}</ListItemIcon>
            {l.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
