// @mui/material/Popper, loaded later: a tooltip's, a menu's or an autocomplete's popup draws only once opened.
// Only the default export: its importers take no other.
import type Popper from '@mui/material/Popper';
import { later } from './later';

export default later<typeof Popper>(() => import('@mui/material/Popper'), { drawsNothing: (p) => !p.open && !p.keepMounted });
