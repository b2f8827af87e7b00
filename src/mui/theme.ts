import { alpha, createTheme, decomposeColor, getContrastRatio, recomposeColor, type Theme } from '@mui/material/styles';
import type { PaletteToneName } from '../registry/override-types';
import type { ThemeMode } from '../core/theme-mode';

/** The panel's palette in each mode; dark keeps the brand blue light enough to read on dark paper. */
const PALETTES = {
  light: { mode: 'light', primary: { main: '#3557d4' }, background: { default: '#f4f6fb', paper: '#ffffff' } },
  dark: { mode: 'dark', primary: { main: '#8fa8ff' }, background: { default: '#0f1320', paper: '#171c2b' } },
} as const;

/** The panel's theme in light or dark mode. */
export function themeFor(mode: ThemeMode): Theme {
  return createTheme({
    palette: PALETTES[mode],
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Inter", "Roboto", "Segoe UI", system-ui, -apple-system, sans-serif',
      h5: { fontWeight: 650 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiPaper: { defaultProps: { elevation: 0 }, styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiButton: { defaultProps: { disableElevation: true } },
      // The top bar keeps the brand blue in both modes (dark mode would paint it grey).
      MuiAppBar: { defaultProps: { elevation: 0, enableColorOnDark: true }, styleOverrides: mode === 'dark' ? { colorPrimary: { backgroundColor: '#24325f', color: '#fff' } } : {} },
    },
  });
}

export const theme = themeFor('light');

/** How strongly a row tone tints the paper: at rest and under the pointer. */
export const TONE_TINT = { rest: 0.12, hover: 0.16 } as const;

/**
 * The opaque background of a toned row (`list.highlight`): the tone's colour over the paper. Cells draw the
 * theme's text on it, which must stay readable (WCAG AA, tests/unit/tone-contrast.test.ts).
 * @example toneBackground(themeFor('dark'), 'success', 'rest') // 'rgb(…)'
 */
export function toneBackground(theme: Theme, tone: PaletteToneName, state: keyof typeof TONE_TINT): string {
  const paper = decomposeColor(theme.palette.background.paper).values;
  const tint = decomposeColor(alpha(theme.palette[tone].main, TONE_TINT[state]));
  const a = tint.values[3] ?? 1;
  const mixed = [0, 1, 2].map((i) => Math.round(tint.values[i] * a + paper[i] * (1 - a)));
  return recomposeColor({ type: 'rgb', values: [mixed[0], mixed[1], mixed[2]] as [number, number, number] });
}

/** The contrast of a text colour (alpha blended onto `background`) against that background. */
export function textContrast(text: string, background: string): number {
  const fg = decomposeColor(text);
  const bg = decomposeColor(background).values;
  const a = fg.type === 'rgba' || fg.type === 'hsla' ? (fg.values[3] ?? 1) : 1;
  const rgb = fg.type.startsWith('hsl') ? decomposeColor(recomposeColor(fg)).values : fg.values;
  const mixed = [0, 1, 2].map((i) => Math.round(rgb[i] * a + bg[i] * (1 - a)));
  return getContrastRatio(`rgb(${mixed.join(', ')})`, background);
}

/** The panel's name as the top bar shows it, before the version. */
export const PANEL_NAME = 'WL admin panel';
