// The server's refusals in the panel's language. The server words every refusal in English from stable
// sentence templates (kernel/manifest/error-text.ts) and the manifests' own messages; the panel translates
// them here, by the whole message or by template, so the server stays one-language and its API unchanged.
import { language, translate, type Lang } from './i18n';

/** The sentence templates of error-text.ts, most specific first; `{label}` is a field's title, the rest are values. */
export const MESSAGE_TEMPLATES = [
  '{label}: this combination is already taken',
  '{label}: there is no {entity} with id {id}',
  '{label} is already taken',
  '{label} is required',
  '{label} is read-only',
  '{label} cannot be changed by this call',
  '{label} cannot be changed',
  '{label} is not an accepted field',
  '{label} is not in the expected form: {rule}',
  '{label} is not in the expected form',
  '{label} must not be empty',
  '{label} must not hold the same item twice',
  '{label} must be at least {amount} long',
  '{label} must be at most {amount} long',
  '{label} must hold at least {amount}',
  '{label} must hold at most {amount}',
  '{label} must be one of: {values}',
  '{label} must be greater than {limit}',
  '{label} must be less than {limit}',
  '{label} must be a multiple of {limit}',
  '{label} must be at least {limit}',
  '{label} must be at most {limit}',
  '{label} must be {what}',
  'The input {what}',
] as const;

/** Amounts inside the templates: "one character", "5 characters", "one item", "3 items". */
export const AMOUNTS = ['one character', '{n} characters', 'one item', '{n} items'] as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function compile(template: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return escape(part);
      names.push(m[1]);
      return m[1] === 'n' ? '(\\d+)' : '(.+?)';
    })
    .join('');
  return { re: new RegExp(`^${source}$`, 's'), names };
}
const COMPILED = MESSAGE_TEMPLATES.map((template) => ({ template, ...compile(template) }));
const AMOUNT_COMPILED = AMOUNTS.map((template) => ({ template, ...compile(template) }));

function byTemplates(lang: Lang, text: string, list: { template: string; re: RegExp; names: string[] }[], part: (name: string, value: string) => string): string | null {
  for (const { template, re, names } of list) {
    const m = re.exec(text);
    if (!m) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, part(name, m[i + 1])]));
    return translate(lang, template, params);
  }
  return null;
}

/** A field's label as the message names it: its title, or "<title>, item N," for a list item. */
function labelIn(lang: Lang, label: string): string {
  const item = /^(.+), item (\d+),?$/.exec(label);
  if (item) return translate(lang, '{label}, item {n}', { label: translate(lang, item[1]), n: item[2] });
  return translate(lang, label);
}

/**
 * One message of the server (or of the form, worded the same way) in a language: the manifests' and the
 * engine's whole messages by the dictionary, the field sentences by template; anything else as it came.
 * @example translateMessage('Name is required', 'ru') // 'Поле «Название» обязательно'
 */
export function translateMessage(message: string, lang: Lang = language.get()): string {
  if (lang === 'en' || !message) return message;
  const whole = translate(lang, message);
  if (whole !== message) return whole;
  // Several refusals at once are joined with "; ".
  if (message.includes('; ')) return message.split('; ').map((m) => translateMessage(m, lang)).join('; ');
  const out = byTemplates(lang, message, COMPILED, (name, value) => {
    if (name === 'label') return labelIn(lang, value);
    if (name === 'amount') return byTemplates(lang, value, AMOUNT_COMPILED, (_n, v) => v) ?? value;
    if (name === 'what' || name === 'rule' || name === 'entity') return translate(lang, value);
    return value;
  });
  return out ?? message;
}
