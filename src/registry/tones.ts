import { installed as overrides } from './installed';
import type { PaletteToneName } from './override-types';
import { createRegistry } from './registry';

/** Row tones of `list.highlight`, keyed by manifest name, valued by the MUI palette colour they paint with. */
export const tones = createRegistry<PaletteToneName>(
  'tone',
  { success: 'success', warning: 'warning', info: 'info', danger: 'error' },
  overrides.tones,
);
