import { enUS as coreEnUS, ruRU as coreRuRU } from '@mui/material/locale';
import { createTheme, useTheme, type Theme } from '@mui/material/styles';
import type { GridLocaleText } from '@mui/x-data-grid';
import type { Lang } from '../core/i18n/i18n';

/**
 * A theme maker adding a locale pack per language, each theme made once per theme and language.
 * @example const withGridLocale = localePacks({ en: enUS, ru: ruRU });
 */
export function localePacks(packs: Record<Lang, object>): (theme: Theme, lang: Lang) => Theme {
  const made = new WeakMap<Theme, Map<Lang, Theme>>();
  return (theme, lang) => {
    let byLang = made.get(theme);
    if (!byLang) made.set(theme, (byLang = new Map()));
    let out = byLang.get(lang);
    if (!out) byLang.set(lang, (out = createTheme(theme, packs[lang])));
    return out;
  };
}

/**
 * The theme with MUI's own locale pack of the language. The data grid's pack is added by the shell
 * (grid-locale.ts), so the login screen does not download it.
 */
export const withLocale = localePacks({ en: coreEnUS, ru: coreRuRU });

/**
 * The grid's texts of the theme's locale pack: a `localeText` prop replaces the theme's whole object, so a grid
 * that sets one text spreads these first.
 */
export function useGridLocaleText(): Partial<GridLocaleText> {
  const theme = useTheme() as Theme & { components?: { MuiDataGrid?: { defaultProps?: { localeText?: Partial<GridLocaleText> } } } };
  return theme.components?.MuiDataGrid?.defaultProps?.localeText ?? {};
}
