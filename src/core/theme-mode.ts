// Light, dark or the system's choice: the user's pick is kept in localStorage; "system" follows the browser's
// prefers-color-scheme, also when it changes while the panel is open.
import { useSyncExternalStore } from 'react';
import { readStored, writeStored } from './storage';
import { createStore } from './store';

export type ThemeChoice = 'light' | 'dark' | 'system';
export type ThemeMode = 'light' | 'dark';

export const THEME_CHOICES: ThemeChoice[] = ['light', 'dark', 'system'];
const KEY = 'panel.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function stored(): ThemeChoice {
  const value = readStored(KEY);
  return THEME_CHOICES.includes(value as ThemeChoice) ? (value as ThemeChoice) : 'system';
}

/** The user's pick. */
export const themeChoice = createStore<ThemeChoice>(stored());

export function chooseTheme(choice: ThemeChoice): void {
  writeStored(KEY, choice);
  themeChoice.set(choice);
}

/** resolveTheme('system', true) === 'dark' */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): ThemeMode {
  return choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
}

const media = () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(DARK_QUERY) : null);

function subscribeSystem(listener: () => void) {
  const query = media();
  query?.addEventListener('change', listener);
  return () => query?.removeEventListener('change', listener);
}

/** The mode to draw in: the pick, or the system's when the pick is "system". */
export function useThemeMode(): ThemeMode {
  const choice = useSyncExternalStore(themeChoice.subscribe, themeChoice.get, themeChoice.get);
  const systemDark = useSyncExternalStore(subscribeSystem, () => Boolean(media()?.matches), () => false);
  return resolveTheme(choice, systemDark);
}
