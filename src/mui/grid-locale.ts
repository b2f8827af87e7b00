// The data grid's locale pack, added to the theme by the shell: only the screens behind the login draw grids.
import { enUS, ruRU } from '@mui/x-data-grid/locales';
import { localePacks } from './locale-theme';

/** The theme with the data grid's texts in the language (made once per theme and language). */
export const withGridLocale = localePacks({ en: enUS, ru: ruRU });
