// How the panel shows a field's value in cells, details and column widths, in the current language.
import type { FieldSchema } from '../../../kernel/manifest/types';
import { formatDateTime, t } from '../i18n/i18n';

/** Field text for tables and details: booleans as yes/no, dates in UTC saying so (formatDateTime), JSON as text. */
export function formatValue(value: unknown, schema?: FieldSchema): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  if (schema?.format === 'date-time' && typeof value === 'string') {
    return formatDateTime(value);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
