import { t } from '../i18n/i18n';
import { translateMessage } from '../i18n/messages';

/** The one failure type of every call: `message` is the server's text, `status` 0 means no answer at all. */
export class HttpError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly body?: unknown,
  ) {
    super(translateMessage(message));
    this.name = 'HttpError';
  }
}

/** The notice text of a failed write (SPEC 4): `Error {message}`, or `Network Error` when there is no message. */
export function writeErrorText(error: unknown): string {
  if (error instanceof HttpError && error.status !== 0 && error.message) return t('Error {message}', { message: error.message });
  return t('Network Error');
}

/** What a 409 for a stale edit carries: the server's message and the record as it is now. */
export interface StaleEdit {
  message: string;
  record: Record<string, unknown>;
}

/** The stale edit an error reports (409 with `stale.record`), else null. */
export function staleEditOf(error: unknown): StaleEdit | null {
  if (!(error instanceof HttpError) || error.status !== 409) return null;
  const record = (error.body as { stale?: { record?: unknown } } | undefined)?.stale?.record;
  return record && typeof record === 'object' ? { message: error.message, record: record as Record<string, unknown> } : null;
}
