import ViewColumn from '@mui/icons-material/ViewColumnOutlined';
import DensityMedium from '@mui/icons-material/DensityMediumOutlined';
import Keyboard from '@mui/icons-material/KeyboardOutlined';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { ColumnsPanelTrigger, Toolbar, gridDensitySelector, useGridApiContext, useGridSelector, type GridDensity } from '@mui/x-data-grid';
import { useState } from 'react';
import { useT } from '../../core/i18n/i18n';
import { openShortcutsHelp } from '../../core/shortcuts';

const DENSITIES: { value: GridDensity; text: 'toolbarDensityCompact' | 'toolbarDensityStandard' | 'toolbarDensityComfortable' }[] = [
  { value: 'compact', text: 'toolbarDensityCompact' },
  { value: 'standard', text: 'toolbarDensityStandard' },
  { value: 'comfortable', text: 'toolbarDensityComfortable' },
];

/**
 * The grid's own toolbar (slots.toolbar): the built-in column chooser, a density menu and the keyboard shortcuts.
 * Texts come from the grid's locale pack; the choices reach the list through the grid's change callbacks.
 */
export function GridToolbar() {
  const apiRef = useGridApiContext();
  const density = useGridSelector(apiRef, gridDensitySelector);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const t = useT();
  const text = (key: Parameters<typeof apiRef.current.getLocaleText>[0]) => String(apiRef.current.getLocaleText(key));
  return (
    <Toolbar style={{ minHeight: 44, justifyContent: 'flex-start', gap: 4 }}>
      <ColumnsPanelTrigger render={<Button size="small" startIcon={<ViewColumn fontSize="small" />} />}>{text('toolbarColumns')}</ColumnsPanelTrigger>
      <Button size="small" startIcon={<DensityMedium fontSize="small" />} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
        {text('toolbarDensity')}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {DENSITIES.map((d) => (
          <MenuItem
            key={d.value}
            selected={d.value === density}
            onClick={() => {
              apiRef.current.setDensity(d.value);
              setAnchor(null);
            }}
          >
            {text(d.text)}
          </MenuItem>
        ))}
      </Menu>
      <Button size="small" startIcon={<Keyboard fontSize="small" />} onClick={openShortcutsHelp} sx={{ ml: 'auto' }}>
        {t('Shortcuts (?)')}
      </Button>
    </Toolbar>
  );
}
