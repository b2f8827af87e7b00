import { enUS as coreEnUS, ruRU as coreRuRU } from '@mui/material/locale';
import { createTheme, useTheme, type Theme } from '@mui/material/styles';
import type { GridLocaleText } from '@mui/x-data-grid';
import { enUS as gridEnUS, ruRU as gridRuRU } from '@mui/x-data-grid/locales';
import type { Lang } from '../core/i18n/i18n';

const PACKS = { en: [gridEnUS, coreEnUS], ru: [gridRuRU, coreRuRU] } as const;
const made = new WeakMap<Theme, Map<Lang, Theme>>();

/** The theme with MUI's and the data grid's own locale packs of the language (made once per theme and language). */
export function withLocale(theme: Theme, lang: Lang): Theme {
  let byLang = made.get(theme);
  if (!byLang) made.set(theme, (byLang = new Map()));
  let out = byLang.get(lang);
  if (!out) byLang.set(lang, (out = createTheme(theme, ...PACKS[lang])));
  return out;
}

/**
 * The grid's texts of the theme's locale pack: a `localeText` prop replaces the theme's whole object, so a grid
 * that sets one text spreads these first.
 */
export function useGridLocaleText(): Partial<GridLocaleText> {
  const theme = useTheme() as Theme & { components?: { MuiDataGrid?: { defaultProps?: { localeText?: Partial<GridLocaleText> } } } };
  return theme.components?.MuiDataGrid?.defaultProps?.localeText ?? {};
}
