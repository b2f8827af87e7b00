// The wording of every validation error a person can see, in one place: the server's 400 messages
// (server/core/input.ts) and the form's messages under each field (src/mui/FormModal.tsx) both come from here,
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

/** The stable code of each problem a field can have (the `problem` of a refusal's `fields`), with its English sentence. */
export const PROBLEM_TEXT = {
  required: '{label} is required',
  additionalProperties: '{label} is not an accepted field',
  type: '{label} must be {what}',
  format: '{label} must be {what}',
  const: '{label} must be {what}',
  notEmpty: '{label} must not be empty',
  minLength: '{label} must be at least {amount} long',
  maxLength: '{label} must be at most {amount} long',
  minimum: '{label} must be at least {limit}',
  maximum: '{label} must be at most {limit}',
  exclusiveMinimum: '{label} must be greater than {limit}',
  exclusiveMaximum: '{label} must be less than {limit}',
  multipleOf: '{label} must be a multiple of {limit}',
  minItems: '{label} must hold at least {amount}',
  maxItems: '{label} must hold at most {amount}',
  uniqueItems: '{label} must not hold the same item twice',
  enum: '{label} must be one of: {values}',
  pattern: '{label} is not in the expected form',
  patternRule: '{label} is not in the expected form: {rule}',
  invalid: '{label} {detail}',
  readOnly: '{label} is read-only',
  notByThisCall: '{label} cannot be changed by this call',
  locked: '{label} cannot be changed',
  noRecord: '{label}: there is no {entity} with id {id}',
  taken: '{label} is already taken',
  takenTogether: '{label}: this combination is already taken',
} as const;

export type ProblemCode = keyof typeof PROBLEM_TEXT;

/**
 * One problem of a field in words of no language: its code, the values its sentence names, and the path to the
 * value (the field, then list positions or inner fields). A client words it in its own language.
 */
export interface CodedProblem {
  problem: ProblemCode;
  params: Record<string, unknown>;
  path: string[];
}

/** Amounts inside the sentences: "one character", "5 characters", "one item", "3 items". */
export const AMOUNT_TEXT = { character: ['one character', '{n} characters'], item: ['one item', '{n} items'] } as const;

/** A text in a language: English by default (the texts above filled in); a client passes its dictionary's. */
export type Wording = (text: string, params?: Record<string, unknown>) => string;
export const english: Wording = (text, params) => text.replace(/\{(\w+)\}/g, (whole, key: string) => (params && key in params ? String(params[key]) : whole));

const amount = (n: number, unit: keyof typeof AMOUNT_TEXT, word: Wording) => (n === 1 ? word(AMOUNT_TEXT[unit][0]) : word(AMOUNT_TEXT[unit][1], { n }));

function typeText(type: unknown, word: Wording): string {
  const types = (Array.isArray(type) ? type : String(type).split(',')).map(String);
  const named = types.filter((t) => t !== 'null').map((t) => (TYPE_TEXT[t] ? word(TYPE_TEXT[t]) : t));
  const text = named.join(word(' or ')) || word('empty');
  return types.includes('null') && named.length ? word('{what} or empty', { what: text }) : text;
}

const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text);

/**
 * The code of one validation problem, from a JSON Schema keyword and its params as ajv reports them (on the server
 * and in RJSF alike); `fallback` is ajv's own words for a keyword the engine does not word.
 * @example codeProblem(['maxVersion'], 'format', { format: 'semver' }) // { problem: 'format', params: { format: 'semver' }, path: ['maxVersion'] }
 */
export function codeProblem(path: string[], keyword: string, params: Record<string, unknown>, fallback?: string): CodedProblem {
  const limit = Number(params.limit);
  const coded = (problem: ProblemCode, values: Record<string, unknown> = {}): CodedProblem => ({ problem, params: values, path });
  switch (keyword) {
    case 'required':
    case 'additionalProperties':
    case 'uniqueItems':
    case 'pattern':
      return coded(keyword);
    case 'type':
      return coded('type', { type: params.type });
    case 'format':
      return coded('format', { format: params.format });
    case 'const':
      return coded('const', { allowedValue: params.allowedValue });
    case 'minLength':
      return limit <= 1 ? coded('notEmpty') : coded('minLength', { limit });
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'minItems':
    case 'maxItems':
      return coded(keyword, { limit });
    case 'multipleOf':
      return coded('multipleOf', { limit: params.multipleOf });
    case 'enum':
      return coded('enum', { allowedValues: params.allowedValues ?? [] });
    default:
      return coded('invalid', { detail: fallback ?? 'is not valid' });
  }
}

/** The values a problem's sentence names, worded; `schema` is the field's (a pattern's rule is its description). */
function sentenceParams(coded: CodedProblem, schema: FieldSchema | undefined, word: Wording): Record<string, unknown> {
  const p = coded.params;
  switch (coded.problem) {
    case 'type':
      return { what: typeText(p.type, word) };
    case 'format':
      return { what: FORMAT_TEXT[String(p.format)] ? word(FORMAT_TEXT[String(p.format)]) : word('in the {format} format', { format: String(p.format) }) };
    case 'const':
      return { what: JSON.stringify(p.allowedValue) };
    case 'minLength':
    case 'maxLength':
      return { amount: amount(Number(p.limit), 'character', word) };
    case 'minItems':
    case 'maxItems':
      return { amount: amount(Number(p.limit), 'item', word) };
    case 'enum':
      return { values: ((p.allowedValues as unknown[]) ?? []).map(String).join(', ') };
    case 'noRecord':
      return { entity: word(String(p.entity)), id: String(p.id) };
    case 'pattern':
      return schema?.description ? { rule: lowerFirst(word(schema.description)) } : {};
    default:
      return p;
  }
}

/**
 * A field's label as a sentence names it: its title, a list item by its 1-based position ("Custom build URLs,
 * item 1,"), an inner field after its parent's; with the schema of the value the path ends at.
 */
export function pathLabel(path: string[], props: Record<string, FieldSchema | undefined> | undefined, word: Wording = english): { label: string; schema?: FieldSchema } {
  const [top, ...rest] = path;
  let label = fieldTitle(top, props);
  let inner: FieldSchema | undefined = props?.[top];
  for (const part of rest) {
    if (/^\d+$/.test(part)) {
      label = word('{label}, item {n},', { label, n: Number(part) + 1 });
      inner = inner?.items;
    } else {
      label = `${label} ${part}`;
      inner = inner?.properties?.[part];
    }
  }
  return { label, schema: inner };
}

/**
 * A coded problem as a sentence about its field, titled by `props` (the field schemas, titles in the wanted
 * language) and worded by `word` (English by default).
 * @example problemSentence({ problem: 'required', params: {}, path: ['name'] }, { name: { title: 'Name' } }) // 'Name is required'
 */
export function problemSentence(coded: CodedProblem, props: Record<string, FieldSchema | undefined> | undefined, word: Wording = english): string {
  const { label, schema } = coded.problem === 'additionalProperties' && coded.path.length === 1 ? { label: coded.path[0], schema: undefined } : pathLabel(coded.path, props, word);
  const labels = coded.problem === 'takenTogether' ? ((coded.params.fields as string[]) ?? []).map((f) => fieldTitle(f, props)).join(word(' and ')) : label;
  const problem = coded.problem === 'pattern' && schema?.description ? 'patternRule' : coded.problem;
  return word(PROBLEM_TEXT[problem], { ...sentenceParams(coded, schema, word), label: labels });
}

/** The label of a field: its schema title, else its name. */
export function fieldTitle(field: string, props: Record<string, FieldSchema | undefined> | undefined): string {
  return props?.[field]?.title ?? field;
}

/**
 * A problem at a path inside the input (`['customBuildUrls', '0']`), as an English sentence: the top field by its
 * title, a list item by its 1-based position ("Custom build URLs, item 1, must not be empty").
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
  return problemSentence(codeProblem(path, keyword, params, fallback), props);
}

/** The engine's other refusals of a field, worded like the validation sentences above (for callers that send no code). */
export const refusalText = {
  readOnly: (label: string) => english(PROBLEM_TEXT.readOnly, { label }),
  notByThisCall: (label: string) => english(PROBLEM_TEXT.notByThisCall, { label }),
  locked: (label: string) => english(PROBLEM_TEXT.locked, { label }),
  noRecord: (label: string, entity: string, id: unknown) => english(PROBLEM_TEXT.noRecord, { label, entity, id: String(id) }),
};

/**
 * A refusal of one field as a refusal's `fields` lists it: the English sentence, its code and the values it names.
 * @example fieldRefusal('name', 'taken', {}, props) // { field: 'name', message: 'Name is already taken', problem: 'taken', params: {} }
 */
export function fieldRefusal(field: string, problem: ProblemCode, params: Record<string, unknown>, props: Record<string, FieldSchema | undefined> | undefined) {
  return { field, message: problemSentence({ problem, params, path: [field] }, props), problem, params };
}
