import { t } from '../i18n/i18n';
import { refusalFieldTexts, refusalText, type FieldTitles, type Refusal } from '../i18n/messages';

/**
 * The one failure type of every call: `message` is the server's refusal in the panel's language (worded from its
 * code and fields, the fields titled by `titles`), `status` 0 means no answer at all.
 */
export class HttpError extends Error {
  /** The bad fields the refusal names, as field -> sentences in the panel's language. */
  readonly fieldTexts: Record<string, string[]>;
  constructor(
    message: string,
    public readonly status: number,
    public readonly body?: unknown,
    titles?: FieldTitles,
  ) {
    super(refusalText(body as Refusal | undefined, message, titles));
    this.name = 'HttpError';
    this.fieldTexts = refusalFieldTexts(body as Refusal | undefined, titles);
  }
}

/** The request was aborted by the user's own Cancel (data-provider.ts), not failed. */
export function isCancelled(error: unknown): boolean {
  return error instanceof HttpError && error.status === 0 && error.message === 'Cancelled';
}

/** The notice text of a failed write (SPEC 4): `Error {message}`, or `Network Error` when there is no message. */
export function writeErrorText(error: unknown): string {
  if (error instanceof HttpError && error.status !== 0 && error.message) return t('Error {message}', { message: error.message });
  // The user's own Cancel (an aborted request, data-provider.ts): no failure of the network.
  if (isCancelled(error)) return t('Cancelled; nothing was stored');
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

/** The stable code of a failure (`ERR_VALIDATION`, `ERR_UNIQUE`, ...; docs/manifests.md), or undefined without an answer. */
export function errorCodeOf(error: unknown): string | undefined {
  const code = error instanceof HttpError ? (error.body as { code?: unknown } | undefined)?.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The bad fields a refused write names (`fields: [{field, message, problem, params}]`), as field -> sentences in
 * the panel's language; empty when the failure names none.
 * @example serverFieldErrors(error) // { name: ['Name is already taken'], code: ['Code is already taken'] }
 */
export function serverFieldErrors(error: unknown): Record<string, string[]> {
  return error instanceof HttpError ? error.fieldTexts : {};
}
