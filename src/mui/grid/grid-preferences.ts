// What a user makes of a list's grid (hidden columns, column widths, density) is kept per user and entity in
// localStorage, so the next visit of that list looks the same; another user of the same browser keeps their own.
import { useCallback, useState } from 'react';
import type { GridDensity } from '@mui/x-data-grid';
import { readStored, writeStored } from '../../core/storage';

export interface GridPreferences {
  /** Manifest fields of the hidden columns. */
  hidden: string[];
  /** Widths the user dragged, by manifest field. */
  widths: Record<string, number>;
  density: GridDensity;
}

export const DEFAULT_PREFERENCES: GridPreferences = { hidden: [], widths: {}, density: 'standard' };
const DENSITIES: GridDensity[] = ['compact', 'standard', 'comfortable'];

/** gridPreferencesKey('admin@x.io', 'platform') === 'panel.grid:admin@x.io:platform' */
export function gridPreferencesKey(user: string, entity: string): string {
  return `panel.grid:${user}:${entity}`;
}

/** Reads stored preferences; anything missing or malformed falls back to the default, never throws. */
export function readGridPreferences(key: string): GridPreferences {
  try {
    const raw = JSON.parse(readStored(key) ?? 'null') as Partial<GridPreferences> | null;
    if (!raw || typeof raw !== 'object') return DEFAULT_PREFERENCES;
    const hidden = Array.isArray(raw.hidden) ? raw.hidden.filter((f): f is string => typeof f === 'string') : [];
    const widths: Record<string, number> = {};
    for (const [field, width] of Object.entries(raw.widths ?? {})) if (typeof width === 'number' && width >= 20 && width <= 4000) widths[field] = Math.round(width);
    const density = DENSITIES.includes(raw.density as GridDensity) ? (raw.density as GridDensity) : 'standard';
    return { hidden, widths, density };
  } catch {
    return DEFAULT_PREFERENCES;
  }
}

export function writeGridPreferences(key: string, prefs: GridPreferences): void {
  writeStored(key, JSON.stringify(prefs));
}

/**
 * The preferences of one user's list of one entity, and a setter that stores them.
 * @example const [prefs, update] = useGridPreferences(gridPreferencesKey(user.email, 'platform'))
 */
export function useGridPreferences(key: string | undefined) {
  const [state, setState] = useState(() => ({ key, prefs: key ? readGridPreferences(key) : DEFAULT_PREFERENCES }));
  // Another list (or user) reads its own preferences at once.
  const prefs = state.key === key ? state.prefs : key ? readGridPreferences(key) : DEFAULT_PREFERENCES;
  if (state.key !== key) setState({ key, prefs });
  const update = useCallback(
    (change: (prev: GridPreferences) => GridPreferences) => {
      setState((prev) => {
        const next = change(prev.key === key ? prev.prefs : key ? readGridPreferences(key) : DEFAULT_PREFERENCES);
        if (key) writeGridPreferences(key, next);
        return { key, prefs: next };
      });
    },
    [key],
  );
  return [prefs, update] as const;
}
