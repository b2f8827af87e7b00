// @mui/material/Dialog, loaded later: the confirmations, the shortcuts' help and a failure's details draw only once
// opened (a closed dialog draws nothing). Only the default export: its importers take no other.
import type Dialog from '@mui/material/Dialog';
import { later } from './later';

export default later<typeof Dialog>(() => import('@mui/material/Dialog'), { drawsNothing: (p) => !p.open && !p.keepMounted });
