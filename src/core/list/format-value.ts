// How the panel shows a field's value in cells, details and column widths, in the current language.
import type { FieldSchema } from '../../../kernel/manifest/types';
import { INTL_LOCALE, language, t, type Lang } from '../i18n/i18n';

/**
 * `Date.toLocaleString(locale)`'s own format (year, month, day, hour, minute and second, numeric), kept once per
 * language: toLocaleString builds a new formatter on every call, which a page of 500 dated rows pays thousands of times.
 */
const DATE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' };
const dateFormats = new Map<Lang, Intl.DateTimeFormat>();
function dateFormat(lang: Lang): Intl.DateTimeFormat {
  let format = dateFormats.get(lang);
  if (!format) dateFormats.set(lang, (format = new Intl.DateTimeFormat(INTL_LOCALE[lang], DATE_TIME)));
  return format;
}

/** Field text for tables and details: booleans as yes/no, dates in the local format, JSON as text. */
export function formatValue(value: unknown, schema?: FieldSchema): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  if (schema?.format === 'date-time' && typeof value === 'string') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : dateFormat(language.get()).format(date);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
