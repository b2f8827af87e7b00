// @mui/material/ToggleButton, loaded later: the data grid's bindings import it for panels a first list paint never
// opens. Only the default export: its importers take no other.
import type ToggleButton from '@mui/material/ToggleButton';
import { later } from './later';

export default later<typeof ToggleButton>(() => import('@mui/material/ToggleButton'));
