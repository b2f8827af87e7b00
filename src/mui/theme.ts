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
    // MUI picks each colour's text (white or dark) as the first reaching this contrast: its default, 3, let white sit
    // on the dark mode's light red at 3.7:1; 4.5 is WCAG AA for text.
    palette: { ...PALETTES[mode], contrastThreshold: 4.5 },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Inter", "Roboto", "Segoe UI", system-ui, -apple-system, sans-serif',
      h5: { fontWeight: 650 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      // A focus ring on whatever the keyboard reaches (WCAG 2.4.7, 2.4.11 and 1.4.11: at least 3:1 against what is
      // around it): 2px of the brand colour, away from the control so that it never sits on the control's own
      // colour; icon buttons get it too (MUI marks them only with a faint ripple). On the top bar it is white.
      MuiCssBaseline: {
        styleOverrides: {
          ':root': { '--panel-focus-ring': `2px solid ${PALETTES[mode].primary.main}` },
          '.MuiAppBar-root': { '--panel-focus-ring': '2px solid #fff' },
          'a:focus-visible': { outline: 'var(--panel-focus-ring)', outlineOffset: 2 },
        },
      },
      // On MUI's own buttons the ring comes with their styles, after their `outline: 0`.
      MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': { outline: 'var(--panel-focus-ring)', outlineOffset: 2 } } } },
      // A disabled field's helper text stays readable (MUI greys it to 2.7:1); the field itself shows it is disabled.
      MuiFormHelperText: { styleOverrides: { root: ({ theme: t }) => ({ '&.Mui-disabled': { color: t.palette.text.secondary } }) } },
      // A filled alert in dark mode is drawn on the colour's dark shade, but MUI picks its text for the main shade:
      // dark text on dark red (3.9:1). The text is picked for the shade it is on.
      MuiAlert: {
        styleOverrides: {
          filled: ({ ownerState, theme: t }) => (t.palette.mode === 'dark' ? { color: t.palette.getContrastText(t.palette[ownerState.color ?? ownerState.severity ?? 'success'].dark) } : {}),
        },
      },
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
