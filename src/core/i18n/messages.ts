// The server's refusals in the panel's language, worded from what is stable in them (docs/manifests.md "Error
// codes"): each bad field's `problem` and `params`, named by the field's title in the manifest, else the failure's
// `code`. The server's English sentence is shown only in English, or for a refusal with nothing stable to word.
import { problemSentence, type CodedProblem, type ProblemCode, PROBLEM_TEXT } from '../../../kernel/manifest/error-text';
import type { FieldSchema } from '../../../kernel/manifest/types';
import { language, translate, type Lang } from './i18n';

/** The panel's words for each stable code, for a refusal that names no field it can word. */
export const CODE_TEXT: Record<string, string> = {
  ERR_VALIDATION: 'A value is refused',
  ERR_MALFORMED: 'The server could not read the request',
  ERR_AUTH: 'Authorization required',
  ERR_ROLE: 'Your role may not use this call',
  ERR_HOST: 'The panel is not served on this host',
  ERR_NOT_FOUND: 'Not found',
  ERR_NO_ROUTE: 'The server has no such call',
  ERR_METHOD: 'The call does not take this method',
  ERR_CONFLICT: 'The record was changed since it was read',
  ERR_UNIQUE: 'A value is already taken',
  ERR_REFERENCED: 'The record is still used by other records',
  ERR_REFUSED: 'The state of the record refuses this call',
  ERR_TOO_LARGE: 'The request is larger than the server accepts',
  ERR_MEDIA_TYPE: 'The server does not take this kind of request',
  ERR_RATE_LIMIT: 'Too many attempts, try again later',
  ERR_INTERNAL: 'Internal server error',
  ERR_UNAVAILABLE: 'The server cannot serve now, try again later',
};

/** A refusal as the server sends it (the envelope of a failed call). */
export interface Refusal {
  message?: unknown;
  code?: unknown;
  fields?: unknown;
}

/** The field schemas a refusal's fields are titled by (the called entity's, titles in the panel's language). */
export type FieldTitles = Record<string, FieldSchema | undefined>;

interface FieldItem {
  field: string;
  message: string;
  problem?: string;
  params?: Record<string, unknown>;
  path?: string[];
}

function fieldItems(refusal: Refusal | undefined): FieldItem[] {
  const fields = refusal?.fields;
  if (!Array.isArray(fields)) return [];
  return (fields as Partial<FieldItem>[]).filter((f): f is FieldItem => typeof f?.field === 'string' && typeof f.message === 'string');
}

/** A bad field's sentence in a language: by its problem code when the panel knows it, else as a whole refusal. */
function fieldSentence(item: FieldItem, refusal: Refusal | undefined, titles: FieldTitles | undefined, lang: Lang): string {
  if (lang === 'en') return item.message;
  if (!item.problem || !(item.problem in PROBLEM_TEXT)) return wholeText(refusal, item.message, lang);
  const coded: CodedProblem = { problem: item.problem as ProblemCode, params: item.params ?? {}, path: item.path ?? [item.field] };
  return problemSentence(coded, titles, (text, params) => translate(lang, text, params));
}

/** A message with no field to word: a text of the manifests by the dictionary, else the words of its code. */
function wholeText(refusal: Refusal | undefined, message: string, lang: Lang): string {
  const whole = translate(lang, message);
  if (whole !== message) return whole;
  const code = typeof refusal?.code === 'string' ? refusal.code : undefined;
  return code && CODE_TEXT[code] ? translate(lang, CODE_TEXT[code]) : message;
}

/**
 * A refusal's message in a language: its first bad field's sentence, a text of the manifests (a `refuseWhen`
 * message) by the dictionary, else the words of its code; the server's own message in English or as the last resort.
 * @example refusalText({ message: 'Name is required', code: 'ERR_VALIDATION', fields: [{ field: 'name', message: 'Name is required', problem: 'required' }] }, { name: { title: 'Название' } }, 'ru')
 *   // 'Поле «Название» обязательно'
 */
export function refusalText(refusal: Refusal | undefined, message: string, titles?: FieldTitles, lang: Lang = language.get()): string {
  if (lang === 'en') return message;
  const [first] = fieldItems(refusal);
  return first ? fieldSentence(first, refusal, titles, lang) : wholeText(refusal, message, lang);
}

/**
 * The bad fields a refusal names, as field -> sentences in a language.
 * @example refusalFieldTexts(body, titles, 'ru') // { name: ['Значение поля «Название» уже занято'] }
 */
export function refusalFieldTexts(refusal: Refusal | undefined, titles?: FieldTitles, lang: Lang = language.get()): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const item of fieldItems(refusal)) (out[item.field] ??= []).push(fieldSentence(item, refusal, titles, lang));
  return out;
}
