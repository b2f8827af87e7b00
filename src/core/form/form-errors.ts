// The form's validation errors in the words of the server's 400s (kernel/manifest/error-text.ts), so a bad value
// reads the same sentence under the field as in the notice of a refused write.
import { codeProblem, problemSentence } from '../../../kernel/manifest/error-text';
import type { FieldSchema } from '../../../kernel/manifest/types';
import { language, translate } from '../i18n/i18n';

/** An error as RJSF's ajv validator reports it: `property` is `.field` or `.field.0` (with the missing field for `required`). */
export interface FormValidationError {
  name?: string;
  property?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/**
 * The sentence of one form error in the panel's language; `props` are the form's fields with the titles they are
 * shown under.
 * @example formErrorText({ name: 'format', property: '.maxVersion', params: { format: 'semver' } }, { maxVersion: { title: 'Max version' } })
 *   // 'Max version must be a version XX.YY.ZZ, like 01.20.34'
 */
export function formErrorText(error: FormValidationError, props: Record<string, FieldSchema | undefined>): string {
  const params = error.params ?? {};
  const path = (error.property ?? '').replace(/^\./, '').split('.').filter(Boolean);
  if (error.name === 'additionalProperties') path.push(String(params.additionalProperty));
  const lang = language.get();
  // An error about the whole form names no field (a form's values are always an object, so it does not happen).
  if (!path.length) return translate(lang, 'A value is refused');
  return problemSentence(codeProblem(path, error.name ?? '', params, error.message), props, (text, values) => translate(lang, text, values));
}

/** The top field an error is about ('customBuildUrls' for `.customBuildUrls.0`). */
export const errorField = (error: FormValidationError) => (error.property ?? '').replace(/^\./, '').split('.')[0];

type FieldErrors = Record<string, { __errors: string[] }>;

/**
 * The form's own errors plus the bad fields the server named in its last refusal (`serverErrors`, from
 * serverFieldErrors), each kept at its field until the user changes that field's value from the one `sent`.
 * Fields the form does not show are left to the notice.
 */
export function withServerErrors<T extends object>(
  own: T,
  serverErrors: Record<string, string[]>,
  values: Record<string, unknown>,
  sent: Record<string, unknown> | null,
  shown: readonly string[],
): T {
  const out: FieldErrors = { ...(own as FieldErrors) };
  if (!sent) return out as T;
  for (const [field, messages] of Object.entries(serverErrors)) {
    if (!shown.includes(field) || JSON.stringify(values[field]) !== JSON.stringify(sent[field])) continue;
    const before = out[field]?.__errors ?? [];
    out[field] = { __errors: [...before, ...messages.filter((m) => !before.includes(m))] };
  }
  return out as T;
}
