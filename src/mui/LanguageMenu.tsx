import Check from '@mui/icons-material/Check';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { LANGS, setLang, useLang } from '../core/i18n/i18n';

/** The menu of the languages, each named in itself (LanguageSwitch loads it when first opened). */
export default function LanguageMenu({ anchor, onClose }: { anchor: HTMLElement | null; onClose: () => void }) {
  const lang = useLang();
  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      {LANGS.map((l) => (
        <MenuItem
          key={l.lang}
          lang={l.lang}
          selected={l.lang === lang}
          onClick={() => {
            void setLang(l.lang);
            onClose();
          }}
        >
          <ListItemIcon>{l.lang === lang && <Check fontSize="small" />}</ListItemIcon>
          {l.label}
        </MenuItem>
      ))}
    </Menu>
  );
}
