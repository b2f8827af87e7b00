// The data grid's locale pack, added to the theme by the shell: only the screens behind the login draw grids.
import { createTheme, type Theme } from '@mui/material/styles';
import { enUS, ruRU } from '@mui/x-data-grid/locales';
import type { Lang } from '../core/i18n/i18n';

const PACKS = { en: enUS, ru: ruRU } as const;
const made = new WeakMap<Theme, Map<Lang, Theme>>();

/** The theme with the data grid's texts in the language (made once per theme and language). */
export function withGridLocale(theme: Theme, lang: Lang): Theme {
  let byLang = made.get(theme);
  if (!byLang) made.set(theme, (byLang = new Map()));
  let out = byLang.get(lang);
  if (!out) byLang.set(lang, (out = createTheme(theme, PACKS[lang])));
  return out;
}
