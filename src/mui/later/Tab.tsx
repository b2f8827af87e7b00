// @mui/material/Tab, loaded later: the data grid's bindings import it for panels a first list paint never opens.
// Only the default export: its importers take no other.
import type Tab from '@mui/material/Tab';
import { later } from './later';

export default later<typeof Tab>(() => import('@mui/material/Tab'));
