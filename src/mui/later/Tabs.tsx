// @mui/material/Tabs, loaded later: the data grid's bindings import it for panels a first list paint never opens.
// Only the default export: its importers take no other.
import type Tabs from '@mui/material/Tabs';
import { later } from './later';

export default later<typeof Tabs>(() => import('@mui/material/Tabs'));
