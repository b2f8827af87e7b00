// RJSF's own texts (the add, remove and move buttons of a list field and their tooltips, yes/no, empty lists) in
// the panel's language: RJSF asks the Form's `translateString` for each by its English enum wording, `%1` holding
// its values, so the dictionary is keyed by those wordings like every other text.
import { replaceStringParameters, TranslatableString } from '@rjsf/utils';
import { translate, type Lang } from '../core/i18n/i18n';

/** Every text RJSF asks to translate (its English wordings), for the dictionary's completeness test. */
export const RJSF_TEXTS: readonly string[] = Object.values(TranslatableString);

const made = new Map<Lang, (text: TranslatableString, params?: string[]) => string>();

/**
 * The Form's `translateString` in a language (one function per language, so the form does not redraw for it).
 * @example <Form translateString={rjsfTranslator('ru')} /> // the add button's tooltip reads 'Добавить элемент'
 */
export function rjsfTranslator(lang: Lang): (text: TranslatableString, params?: string[]) => string {
  let out = made.get(lang);
  if (!out) made.set(lang, (out = (text, params) => replaceStringParameters(translate(lang, text), params)));
  return out;
}
