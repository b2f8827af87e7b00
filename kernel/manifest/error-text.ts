// The wording of every validation error a person can see, in one place: the server's 400 messages
// (server/crud/input.ts) and the form's messages under each field (src/mui/FormModal.tsx) both come from here,
// so a bad value reads the same sentence about the field wherever it is refused.
import type { FieldSchema } from './types.ts';

/** What a format asks for, as the end of "<Field> must be ...". */
export const FORMAT_TEXT: Record<string, string> = {
  email: 'an e-mail address',
  ipv4: 'an IPv4 address a.b.c.d (each part 0-255)',
  ipv4cidr: 'an IPv4 address a.b.c.d (each part 0-255) with an optional /mask of 0-32',
  semver: 'a version XX.YY.ZZ, like 01.20.34',
  version3: 'a version X.X.X, like 1.20.34',
  uri: 'a URL, like https://example.com/',
  'date-time': 'a date and time',
  date: 'a date',
};

export const TYPE_TEXT: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  string: 'text',
  array: 'a list',
  object: 'a JSON object',
};

const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? `one ${one}` : `${n} ${many}`);

function typeText(type: unknown): string {
  const types = (Array.isArray(type) ? type : String(type).split(',')).map(String);
  const named = types.filter((t) => t !== 'null').map((t) => TYPE_TEXT[t] ?? t);
  const text = named.join(' or ') || 'empty';
  return types.includes('null') && named.length ? `${text} or empty` : text;
}

const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text);

/**
 * One validation problem as a sentence about the field, from a JSON Schema keyword and its params (as ajv
 * reports them, on the server and in RJSF alike).
 * @example problemText('Max version', 'format', { format: 'semver' }) // 'Max version must be a version XX.YY.ZZ, like 01.20.34'
 */
export function problemText(label: string, keyword: string, params: Record<string, unknown>, schema?: FieldSchema, fallback?: string): string {
  const limit = Number(params.limit);
  switch (keyword) {
    case 'required':
      return `${label} is required`;
    case 'additionalProperties':
      return `${label} is not an accepted field`;
    case 'type':
      return `${label} must be ${typeText(params.type)}`;
    case 'format':
      return `${label} must be ${FORMAT_TEXT[String(params.format)] ?? `in the ${String(params.format)} format`}`;
    case 'minLength':
      return limit <= 1 ? `${label} must not be empty` : `${label} must be at least ${plural(limit, 'character')} long`;
    case 'maxLength':
      return `${label} must be at most ${plural(limit, 'character')} long`;
    case 'minimum':
      return `${label} must be at least ${limit}`;
    case 'maximum':
      return `${label} must be at most ${limit}`;
    case 'exclusiveMinimum':
      return `${label} must be greater than ${limit}`;
    case 'exclusiveMaximum':
      return `${label} must be less than ${limit}`;
    case 'multipleOf':
      return `${label} must be a multiple of ${String(params.multipleOf)}`;
    case 'minItems':
      return `${label} must hold at least ${plural(limit, 'item')}`;
    case 'maxItems':
      return `${label} must hold at most ${plural(limit, 'item')}`;
    case 'uniqueItems':
      return `${label} must not hold the same item twice`;
    case 'enum':
      return `${label} must be one of: ${((params.allowedValues as unknown[]) ?? []).map(String).join(', ')}`;
    case 'const':
      return `${label} must be ${JSON.stringify(params.allowedValue)}`;
    case 'pattern':
      return schema?.description ? `${label} is not in the expected form: ${lowerFirst(schema.description)}` : `${label} is not in the expected form`;
    default:
      return `${label} ${fallback ?? 'is not valid'}`;
  }
}

/** The label of a field: its schema title, else its name. */
export function fieldTitle(field: string, props: Record<string, FieldSchema | undefined> | undefined): string {
  return props?.[field]?.title ?? field;
}

/**
 * A problem at a path inside the input (`['customBuildUrls', '0']`), as a sentence: the top field by its title,
 * a list item by its 1-based position ("Custom build URLs, item 1, must not be empty").
 * `path` ends with the missing or extra property for `required` and `additionalProperties`.
 */
export function describeProblem(
  path: string[],
  keyword: string,
  params: Record<string, unknown>,
  props: Record<string, FieldSchema | undefined> | undefined,
  fallback?: string,
): string {
  if (path.length === 0) return `The input ${fallback ?? 'is not valid'}`;
  const [top, ...rest] = path;
  const schema = props?.[top];
  if (keyword === 'additionalProperties' && rest.length === 0) return problemText(top, keyword, params);
  let label = fieldTitle(top, props);
  let inner: FieldSchema | undefined = schema;
  for (const part of rest) {
    if (/^\d+$/.test(part)) {
      label = `${label}, item ${Number(part) + 1},`;
      inner = inner?.items;
    } else {
      label = `${label} ${part}`.replace(/,$/, '');
      inner = inner?.properties?.[part];
    }
  }
  // "X, item 2, must ..." reads as one sentence; a trailing comma before "is required" too.
  return problemText(label, keyword, params, inner, fallback);
}

/** The engine's other refusals of a field, worded like the validation sentences above. */
export const refusalText = {
  readOnly: (label: string) => `${label} is read-only`,
  notByThisCall: (label: string) => `${label} cannot be changed by this call`,
  locked: (label: string) => `${label} cannot be changed`,
  noRecord: (label: string, entity: string, id: unknown) => `${label}: there is no ${entity} with id ${String(id)}`,
  taken: (labels: string[]) => (labels.length === 1 ? `${labels[0]} is already taken` : `${labels.join(' and ')}: this combination is already taken`),
};
