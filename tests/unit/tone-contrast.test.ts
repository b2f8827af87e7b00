// The row tones of the spec (success green, failed red, ...) stay readable in both themes: the cells' text on
// every toned row, at rest and under the pointer, meets WCAG AA (contrast >= 4.5).
import { describe, expect, it } from 'vitest';
import { resolveTheme } from '../../src/core/theme-mode';
import { textContrast, themeFor, toneBackground } from '../../src/mui/theme';
import { tones } from '../../src/registry/tones';

const PALETTE_TONES = ['success', 'warning', 'info', 'error'] as const;

describe('row tones in both themes', () => {
  it('every tone the manifests may name paints with a palette colour this test covers', () => {
    for (const name of tones.names()) expect(PALETTE_TONES).toContain(tones.get(name, { file: 'test', path: '/tone' }));
  });

  for (const mode of ['light', 'dark'] as const) {
    it(`keeps primary and secondary text and links at >= 4.5:1 on every tone in ${mode} mode`, () => {
      const theme = themeFor(mode);
      const ratios: Record<string, number> = {};
      for (const tone of PALETTE_TONES) {
        for (const state of ['rest', 'hover'] as const) {
          const background = toneBackground(theme, tone, state);
          ratios[`${tone} ${state} primary`] = textContrast(theme.palette.text.primary, background);
          ratios[`${tone} ${state} secondary`] = textContrast(theme.palette.text.secondary, background);
          // Link cells (URLs, files) draw in the primary colour.
          ratios[`${tone} ${state} link`] = textContrast(theme.palette.primary.main, background);
        }
      }
      const low = Object.entries(ratios).filter(([, ratio]) => ratio < 4.5);
      expect(low).toEqual([]);
    });
  }

  it('tints toward the tone: a dark success row is greener than the dark paper, and not the light one', () => {
    const dark = themeFor('dark');
    expect(toneBackground(dark, 'success', 'rest')).not.toBe(toneBackground(themeFor('light'), 'success', 'rest'));
    const [r, g] = toneBackground(dark, 'success', 'rest').match(/\d+/g)!.map(Number);
    expect(g).toBeGreaterThan(r);
  });

  it('follows the system when the choice is "system"', () => {
    expect([resolveTheme('system', true), resolveTheme('system', false), resolveTheme('light', true), resolveTheme('dark', false)]).toEqual(['dark', 'light', 'light', 'dark']);
  });
});
