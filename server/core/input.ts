// Turns what a caller sent into a checked plain object: query/multipart strings converted by the field's
// schema type, then strict ajv validation. Every refusal is a 400 that names the field.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyRequest } from 'fastify';
import type { FieldSchema } from '../../kernel/manifest/types.ts';
import { codeProblem, describeProblem, fieldTitle } from '../../kernel/manifest/error-text.ts';
import { CUSTOM_FORMATS } from '../../kernel/rules/formats.ts';
import { IPV4 } from '../../kernel/rules/ip.ts';
import { AppError, fieldError, malformed } from '../errors.ts';
import { jsonShapeProblem } from '../json-shape.ts';
import type { FieldProblem } from '../error-codes.ts';
import { fieldKind } from '../model/model.ts';
import { callerSchema, type InputSource } from '../contract/route-schema.ts';


const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: false });
addFormats(ajv);
for (const [name, pattern] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, pattern);


/** The fields of the request as a prototype-free object; repeated query keys and poisoned keys are refused. */
export function readRaw(request: FastifyRequest, source: InputSource): Record<string, unknown> {
  return inputOf(source === 'query' ? request.query : request.body, source);
}

/** A query, form or body value as readRaw makes it: a prototype-free object of its fields, each checked. */
export function inputOf(raw: unknown, source: InputSource): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  if (raw === undefined || raw === null || raw === '') return out;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw malformed('The body must be a JSON object');
  for (const key of Object.keys(raw)) {
    if (FORBIDDEN_KEYS.has(key)) throw fieldError(key, `${key}: is not an accepted field`);
    let value = (raw as Record<string, unknown>)[key];
    if (source !== 'json' && Array.isArray(value)) throw fieldError(key, `${key} must be given once`);
    if (source === 'multipart') value = multipartValue(key, value);
    // PostgreSQL text cannot hold NUL, and no field of this product needs one.
    if (typeof value === 'string' && value.includes('\0')) throw fieldError(key, `${key}: must not contain a NUL character`);
    out[key] = value;
  }
  return out;
}

/** A multipart part as a plain value: a field's text, or the UploadedFile that onFile attached. */
function multipartValue(key: string, part: unknown): unknown {
  const p = part as { type?: string; value?: unknown; valueTruncated?: boolean } | null;
  if (!p || typeof p !== 'object' || !('value' in p)) throw fieldError(key, `${key}: is not a form field`);
  if (p.valueTruncated) throw fieldError(key, `${key}: the value is too large`, 413);
  return p.value;
}

/** JSON.parse that refuses prototype-poisoning keys anywhere in the value, nesting too deep and a repeated key. */
export function parseJsonSafely(text: string, field: string, key = field): unknown {
  const shape = jsonShapeProblem(text);
  if (shape) throw fieldError(key, `${field} is not accepted JSON: it ${shape}`);
  try {
    // The reviver costs more than the parse (the device lookup parses `platform` on every call): text that cannot
    // spell a forbidden key, even \u-escaped, needs none.
    if (!/__proto__|constructor|prototype|\\u/.test(text)) return JSON.parse(text);
    return JSON.parse(text, (key, value) => {
      if (FORBIDDEN_KEYS.has(key)) throw new Error(`key "${key}" is not allowed`);
      return value;
    });
  } catch (error) {
    throw fieldError(key, `${field} is not valid JSON (${(error as Error).message})`);
  }
}

const allowsNull = (schema: FieldSchema) => Array.isArray(schema.type) && schema.type.includes('null');
const allowsString = (schema: FieldSchema) =>
  schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/** Converts one value by its field schema: strings from a query or multipart form, JSON text for x-json. */
export function coerce(value: unknown, schema: FieldSchema, field: string, fromStrings: boolean): unknown {
  const kind = fieldKind(schema);
  if (kind === 'json') {
    if (typeof value === 'string' && !allowsString(schema)) return parseJsonSafely(value, schema.title ?? field, field);
    return value;
  }
  // SPEC 9: the default mask is 32, so a stored address always carries one (as the import's do).
  if (schema.format === 'ipv4cidr' && typeof value === 'string' && IPV4.test(value)) return `${value}/32`;
  if (!fromStrings || typeof value !== 'string') return value;
  if (value === '' && allowsNull(schema)) return null;
  if (kind === 'integer' && /^-?\d{1,15}$/.test(value)) return Number(value);
  if (kind === 'number' && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value)) return Number(value);
  if (kind === 'boolean') {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
  }
  return value;
}

/** The record fields a validator checks, with the titles and descriptions its error sentences use. */
const fieldsOf = new WeakMap<ValidateFunction, Record<string, FieldSchema>>();

export function objectValidator(properties: Record<string, FieldSchema>, required: string[]): ValidateFunction {
  const validate = ajv.compile({
    type: 'object',
    additionalProperties: false,
    required,
    properties: Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, callerSchema(s)])),
  });
  fieldsOf.set(validate, properties);
  return validate;
}

/**
 * An ajv error as a sentence about the field, worded by kernel/manifest/error-text.ts (the form uses the same):
 * `Max version must be a version XX.YY.ZZ, like 01.20.34`. `props` gives the fields' titles.
 */
export function describeError(error: ErrorObject, props?: Record<string, FieldSchema | undefined>): string {
  const path = errorPath(error);
  return describeProblem(path, error.keyword, error.params as Record<string, unknown>, props, error.message);
}

/** The path of the value an ajv error is about, ending with the missing or extra property. */
function errorPath(error: ErrorObject): string[] {
  const params = error.params as Record<string, unknown>;
  const path = error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') path.push(String(params.missingProperty));
  if (error.keyword === 'additionalProperties') path.push(String(params.additionalProperty));
  return path;
}

/** A bad field as `fields` lists it: the English sentence, and its code and values for a client in another language. */
function fieldProblem(field: string, error: Pick<ErrorObject, 'keyword' | 'params' | 'instancePath' | 'message'>, props: Record<string, FieldSchema> | undefined): FieldProblem {
  const path = errorPath(error as ErrorObject);
  const { problem, params } = codeProblem(path, error.keyword, error.params as Record<string, unknown>, error.message);
  return { field, message: describeProblem(path, error.keyword, error.params as Record<string, unknown>, props, error.message), problem, params, ...(path.length > 1 ? { path } : {}) };
}

/** The title of a field for messages, e.g. `Whitelabel ID` for whitelabelId. */
export const titleOf = (props: Record<string, FieldSchema | undefined> | undefined, field: string) => fieldTitle(field, props);

/** Validators of single fields, compiled when a request first fails, to name every bad field rather than the first. */
const perField = new WeakMap<ValidateFunction, Map<string, ValidateFunction>>();

function fieldValidator(validate: ValidateFunction, field: string, schema: object): ValidateFunction | undefined {
  let map = perField.get(validate);
  if (!map) perField.set(validate, (map = new Map()));
  if (!map.has(field)) {
    let one: ValidateFunction | undefined;
    try {
      one = ajv.compile(schema);
    } catch {
      // A field schema that only makes sense inside its parent ($ref to a sibling) is checked by the whole only.
      one = undefined;
    }
    map.set(field, one!);
  }
  return map.get(field);
}

/**
 * Every bad field of an input the whole validator refused, one problem per field: each present field checked
 * alone (bounded by the number of fields, unlike ajv's allErrors on a huge array), missing required ones, and
 * fields not accepted. The first problem is the one ajv stopped at, so `message` reads as before.
 */
function problemsOf(validate: ValidateFunction, input: unknown, props: Record<string, FieldSchema> | undefined): FieldProblem[] {
  const first = validate.errors![0];
  const out: FieldProblem[] = [];
  const seen = new Set<string>();
  const add = (field: string | undefined, error: Pick<ErrorObject, 'keyword' | 'params' | 'instancePath' | 'message'>) => {
    if (field === undefined || seen.has(field)) return;
    seen.add(field);
    out.push(fieldProblem(field, error, props));
  };
  add(topField(first), first);
  const schema = validate.schema as { properties?: Record<string, object>; required?: string[]; additionalProperties?: unknown };
  if (!input || typeof input !== 'object' || !schema.properties) return out;
  const values = input as Record<string, unknown>;
  for (const [field, value] of Object.entries(values)) {
    if (seen.has(field)) continue;
    const fieldSchema = schema.properties[field];
    if (!fieldSchema) {
      if (schema.additionalProperties === false) add(field, { keyword: 'additionalProperties', params: { additionalProperty: field }, instancePath: '' });
      continue;
    }
    const one = fieldValidator(validate, field, fieldSchema);
    if (!one || one(value)) continue;
    const error = one.errors![0];
    add(field, { ...error, instancePath: `/${field.replace(/~/g, '~0').replace(/\//g, '~1')}${error.instancePath}` });
  }
  for (const field of schema.required ?? []) if (!(field in values)) add(field, { keyword: 'required', params: { missingProperty: field }, instancePath: '' });
  return out;
}

/** The top-level field an ajv error is about, if any. */
function topField(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  const top = error.instancePath.split('/')[1];
  if (top !== undefined) return top.replace(/~1/g, '/').replace(/~0/g, '~');
  if (error.keyword === 'required') return String(params.missingProperty);
  if (error.keyword === 'additionalProperties') return String(params.additionalProperty);
  return undefined;
}

export function check(validate: ValidateFunction, input: unknown): void {
  if (validate(input)) return;
  const props = fieldsOf.get(validate) ?? (validate.schema as { properties?: Record<string, FieldSchema> }).properties;
  const message = describeError(validate.errors![0], props);
  const problems = problemsOf(validate, input, props);
  // The message stays the sentence of the first error ajv met, whichever field it names.
  throw problems.length ? new AppError(400, message, undefined, { fields: problems }) : new AppError(400, message);
}
