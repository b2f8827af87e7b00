// The panel's two languages. Every text is keyed by its English wording, so English is the identity and reads
// exactly as the spec and the manifests write it; Russian comes from src/i18n/ru.json, loaded only when that
// language is chosen (an English session never downloads it). The spec's own Russian
// texts ('Нет доступа!', 'Требуется указать {field}', ...) are quoted requirements: they are never keys of the
// dictionary, so they read the same in both languages.
import { useSyncExternalStore } from 'react';
import { createStore } from '../store';

export type Lang = 'en' | 'ru';
export const LANGS: { lang: Lang; label: string }[] = [
  { lang: 'en', label: 'English' },
  { lang: 'ru', label: 'Русский' },
];

const STORAGE_KEY = 'panel.lang';
/** The dictionaries loaded so far; English is the identity. */
const DICTIONARIES: Partial<Record<Lang, Readonly<Record<string, string>>>> = { en: {} };
const LOADERS: Record<Exclude<Lang, 'en'>, () => Promise<{ default: Record<string, string> }>> = {
  ru: () => import('../../i18n/ru.json'),
};
/** The locale Intl formats dates and numbers with in each language. */
export const INTL_LOCALE: Record<Lang, string> = { en: 'en-US', ru: 'ru-RU' };

function storedLang(): Lang {
  try {
    const value = globalThis.localStorage?.getItem(STORAGE_KEY);
    return value === 'ru' ? 'ru' : 'en';
  } catch {
    return 'en';
  }
}

/** The current language; `setLang` switches it. */
export const language = createStore<Lang>(storedLang());

/**
 * Loads a language's dictionary once (the panel awaits the stored language's before it draws).
 * @example await loadLanguage('ru'); t('Logout') // 'Выйти' once the language is Russian
 */
export async function loadLanguage(lang: Lang): Promise<void> {
  if (lang === 'en' || DICTIONARIES[lang]) return;
  DICTIONARIES[lang] = (await LOADERS[lang]()).default;
}

/** Switches the language everywhere at once (as soon as its dictionary is loaded) and remembers it in localStorage. */
export function setLang(lang: Lang): Promise<void> {
  if (!DICTIONARIES[lang]) return loadLanguage(lang).then(() => switchTo(lang));
  switchTo(lang);
  return Promise.resolve();
}

function switchTo(lang: Lang): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang);
  } catch {
    // A browser without storage still switches, only for this page.
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  language.set(lang);
}

if (typeof document !== 'undefined') document.documentElement.lang = language.get();

/** `{name}` placeholders filled from params; unknown ones stay as written. */
export function fill(text: string, params?: Record<string, unknown>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}

/**
 * The text in a language: the dictionary's translation of its English wording, else the wording itself.
 * `params.context` picks the entry "<text> [<context>]" when the dictionary has one.
 */
export function translate(lang: Lang, text: string, params?: Record<string, unknown>): string {
  // One English word with two meanings ('Login' the field, 'Login' the button) is told apart by a context.
  const dict = DICTIONARIES[lang] ?? {};
  const own = params?.context ? dict[`${text} [${String(params.context)}]`] : undefined;
  return fill(own ?? dict[text] ?? text, params);
}

/**
 * A text in the current language, outside React (notices, confirm questions).
 * @example t('Delete this item?') // 'Удалить эту запись?' in Russian
 */
export function t(text: string, params?: Record<string, unknown>): string {
  return translate(language.get(), text, params);
}

export type T = (text: string, params?: Record<string, unknown>) => string;

/** The current language, re-rendering on a switch. */
export function useLang(): Lang {
  return useSyncExternalStore(language.subscribe, language.get, language.get);
}

/** `t` bound to the current language, re-rendering the component on a switch. */
export function useT(): T {
  const lang = useLang();
  return (text, params) => translate(lang, text, params);
}

const DATE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' };
/** One formatter per language and zone: toLocaleString builds one per call, which a page of 500 dated rows pays thousands of times. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(lang: Lang, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${lang} ${timeZone ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(INTL_LOCALE[lang], { ...DATE_TIME, timeZone })));
  return format;
}

/** The texts of the moments formatted last (a few pages of 500 rows, two dates each). */
const formattedDates = new Map<string, string>();
/** The same in the user's own zone (localDateTime). */
const localDates = new Map<string, string>();
const DATES_KEPT = 5000;

/** `write(date)` of a moment, kept in `texts` by language and value when the value is a string (as rows carry it). */
function rememberedDate(texts: Map<string, string>, value: Date | string | number, lang: Lang, write: (date: Date) => string): string {
  const key = typeof value === 'string' ? `${lang}${value}` : undefined;
  const known = key === undefined ? undefined : texts.get(key);
  if (known !== undefined) return known;
  const text = write(value instanceof Date ? value : new Date(value));
  if (key !== undefined) {
    if (texts.size >= DATES_KEPT) texts.clear();
    texts.set(key, text);
  }
  return text;
}

/**
 * A moment as the language writes it, in UTC and saying so: every staff member reads the same time, whatever their
 * zone (the user's own is in localDateTime).
 * @example formatDateTime('2026-11-28T05:10:00Z', 'ru') // '28.11.2026, 05:10:00 UTC'
 */
export function formatDateTime(value: Date | string | number, lang: Lang = language.get()): string {
  // A page's dates are formatted twice (the column widths, then the cells): the second time is a look-up.
  return rememberedDate(formattedDates, value, lang, (date) => (Number.isNaN(date.getTime()) ? String(value) : `${dateFormat(lang, 'UTC').format(date)} UTC`));
}

/** The same moment in the user's own zone, naming it: '28.11.2026, 08:10:00 (Europe/Moscow)'; '' when no date. */
export function localDateTime(value: Date | string | number, lang: Lang = language.get()): string {
  // Each dated cell asks at each drawing of its row: the second time is a look-up.
  return rememberedDate(localDates, value, lang, (date) => {
    if (Number.isNaN(date.getTime())) return '';
    const format = dateFormat(lang, undefined);
    return `${format.format(date)} (${format.resolvedOptions().timeZone})`;
  });
}

/** One formatter per language: building one costs more than formatting (the list's count and pager, each render). */
const numberFormats = new Map<Lang, Intl.NumberFormat>();

/** A number as the language writes it (Intl): 1,234.5 in English, 1 234,5 in Russian. */
export function formatNumber(value: number, lang: Lang = language.get()): string {
  let format = numberFormats.get(lang);
  if (!format) numberFormats.set(lang, (format = new Intl.NumberFormat(INTL_LOCALE[lang])));
  return format.format(value);
}

/** A loaded dictionary (empty until loadLanguage), for the completeness tests. */
export const dictionary = (lang: Lang): Readonly<Record<string, string>> => DICTIONARIES[lang] ?? {};

const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte'] as const;
/**
 * A size as the language writes it, in kB, MB or GB (powers of 1000, as the unit names say) with one decimal;
 * Intl words the unit (MB, МБ).
 * @example formatBytes(1_234_567) // '1.2 MB'; '1,2 МБ' in Russian
 */
export function formatBytes(bytes: number, lang: Lang = language.get()): string {
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(INTL_LOCALE[lang], { style: 'unit', unit: BYTE_UNITS[unit], minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}
