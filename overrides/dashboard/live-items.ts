// Readers of the live items the server's build jobs emit (server/builds/builds.ts). The spec leaves their
// shapes open, so each reader also copes with a plain string or an unknown object.
import { t } from '../../src/core/i18n/i18n';

/** A live panel's data as a list (one item, null and a list all read as a list). */
export function list(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  return data === null || data === undefined ? [] : [data];
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function consoleText(line: unknown): string {
  return text(line);
}

/** {whitelabel, messages: [...]} -> the whitelabel, its last message and all of them. */
export function wlStatusOf(item: unknown): { whitelabel: string; last: string; messages: string[] } {
  if (item && typeof item === 'object') {
    const { whitelabel, messages, message } = item as { whitelabel?: unknown; messages?: unknown; message?: unknown };
    const all = Array.isArray(messages) ? messages.map(text) : message !== undefined ? [text(message)] : [];
    return { whitelabel: whitelabel === undefined ? '?' : text(whitelabel), last: all[all.length - 1] ?? '', messages: all };
  }
  return { whitelabel: '?', last: text(item), messages: [text(item)] };
}

/** {process, checked, total} -> "update: 3 of 10 builds checked" with a percentage. */
export function buildCheckText(item: unknown): { text: string; progress?: number } {
  if (item && typeof item === 'object') {
    const { process, checked, total } = item as { process?: unknown; checked?: unknown; total?: unknown };
    if (typeof checked === 'number' && typeof total === 'number') {
      return { text: t('{process}: {checked} of {total} builds checked', { process: text(process ?? t('check')), checked, total }), progress: total > 0 ? (checked / total) * 100 : 0 };
    }
  }
  return { text: text(item) };
}

/** {build, message} -> "build: message". */
export function errorText(item: unknown): string {
  if (item && typeof item === 'object' && 'build' in item) {
    const { build, message } = item as { build: unknown; message?: unknown };
    return `${text(build)}: ${message === undefined ? t('failed') : text(message)}`;
  }
  return text(item);
}
