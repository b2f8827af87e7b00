import Check from '@mui/icons-material/Check';
import DarkMode from '@mui/icons-material/DarkModeOutlined';
import LightMode from '@mui/icons-material/LightModeOutlined';
import SystemMode from '@mui/icons-material/SettingsBrightnessOutlined';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { chooseTheme, themeChoice, THEME_CHOICES, type ThemeChoice } from '../core/theme-mode';
import { useT, type T } from '../core/i18n/i18n';
import { useStore } from '../core/store';

const labels = (t: T): Record<ThemeChoice, string> => ({ light: t('Light'), dark: t('Dark'), system: t("System's choice") });
const ICONS = { light: LightMode, dark: DarkMode, system: SystemMode };

/** The shell's theme switch: light, dark or the system's choice, remembered in this browser. */
export function ThemeMenu() {
  const choice = useStore(themeChoice);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const t = useT();
  const LABELS = labels(t);
  const Icon = ICONS[choice];
  return (
    <>
      <Tooltip title={t('Theme: {choice}', { choice: LABELS[choice] })}>
        <IconButton color="inherit" aria-label={t('Theme')} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)} sx={{ flexShrink: 0 }}>
          <Icon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {THEME_CHOICES.map((c) => {
          const ItemIcon = ICONS[c];
          return (
            <MenuItem
              key={c}
              selected={c === choice}
              aria-checked={c === choice}
              role="menuitemradio"
              onClick={() => {
                chooseTheme(c);
                setAnchor(null);
              }}
            >
              <ListItemIcon>
                <ItemIcon fontSize="small" />
              </ListItemIcon>
              <ListItemText>{LABELS[c]}</ListItemText>
              {c === choice && <Check fontSize="small" sx={{ ml: 2 }} />}
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
