// Turns what a caller sent into a checked plain object: query/multipart strings converted by the field's
// schema type, then the route's schema compiled by the server's one ajv, as Fastify's validator of the route
// (routeValidation). Every refusal is a 400 that names every bad field.
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { FieldSchema } from '../../kernel/manifest/types.ts';
import { codeProblem, describeProblem, fieldTitle } from '../../kernel/manifest/error-text.ts';
import { CUSTOM_FORMATS } from '../../kernel/rules/formats.ts';
import { IPV4 } from '../../kernel/rules/ip.ts';
import { AppError, fieldError, malformed } from '../errors.ts';
import { jsonShapeProblem } from '../json-shape.ts';
import { JsonBytes } from './json-bytes.ts';
import type { FieldProblem } from '../error-codes.ts';
import { fieldKind } from '../model/model.ts';
import type { InputSource, Json } from '../contract/route-schema.ts';


const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The one ajv of the server, with the manifests' options: their formats (kernel/rules/formats.ts), no defaults filled
 * in, unknown keywords (the engine's x-) ignored, and every error of an input collected so `fields` names them all.
 */
export const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false });
addFormats(ajv);
for (const [name, pattern] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, pattern);


/** A query, form or body value as a prototype-free object of its fields, each checked: repeated query keys and poisoned keys are refused. */
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
function fieldProblem(field: string, error: ErrorObject, props: Record<string, FieldSchema> | undefined): FieldProblem {
  const path = errorPath(error);
  const params = error.params as Record<string, unknown>;
  const coded = codeProblem(path, error.keyword, params, error.message);
  return { field, message: describeProblem(path, error.keyword, params, props, error.message), problem: coded.problem, params: coded.params, ...(path.length > 1 ? { path } : {}) };
}

/** The title of a field for messages, e.g. `Whitelabel ID` for whitelabelId. */
export const titleOf = (props: Record<string, FieldSchema | undefined> | undefined, field: string) => fieldTitle(field, props);

/** The top-level field an ajv error is about, if any. */
function topField(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  const top = error.instancePath.split('/')[1];
  if (top !== undefined) return top.replace(/~1/g, '/').replace(/~0/g, '~');
  if (error.keyword === 'required') return String(params.missingProperty);
  if (error.keyword === 'additionalProperties') return String(params.additionalProperty);
  return undefined;
}

/**
 * The 400 of an input ajv refused: `message` is the sentence of the first error ajv met, `fields` one problem per
 * bad field (its first error), the fields in the order they were sent, then the missing ones.
 */
function refusal(errors: ErrorObject[], input: Record<string, unknown>, props: Record<string, FieldSchema> | undefined, required: string[]): AppError {
  const first = errors[0];
  const byField = new Map<string, ErrorObject>();
  for (const error of errors) {
    const field = topField(error);
    if (field !== undefined && !byField.has(field)) byField.set(field, error);
  }
  const problems: FieldProblem[] = [];
  for (const field of new Set([topField(first), ...Object.keys(input), ...required])) {
    if (field !== undefined && byField.has(field)) problems.push(fieldProblem(field, byField.get(field)!, props));
  }
  const message = describeError(first, props);
  return problems.length ? new AppError(400, message, undefined, { fields: problems }) : new AppError(400, message);
}

/** How the input of one route is read before its schema checks it, and how its problems are worded. */
export interface InputRules {
  /** Where the input comes from: query and multipart values are strings, converted by the fields' types. */
  source: InputSource;
  /** The fields' schemas whose titles (and descriptions) word the messages. */
  props?: Record<string, FieldSchema>;
  /**
   * What runs on the input before the schema, in order: refusals with a better sentence than the schema's (a
   * read-only field), values converted by the field's type (coerce), empty filters dropped. May throw an AppError.
   */
  prepare?: (input: Record<string, unknown>) => void;
  /** Values the schema does not check, handed to the handler as sent (the version of an edit, uploaded files). */
  setAside?: (field: string, value: unknown) => boolean;
  /** Fields left out of the schema's properties and `required` (a stored file, checked by its rule). */
  omit?: Iterable<string>;
  /** Properties checked with another schema than the document's (a form's JSON text field, checked once parsed). */
  override?: Record<string, Json>;
}

/** The route's validation: Fastify's validatorCompiler, and the same check for a body a handler reads itself. */
export interface RouteValidation {
  /** The route's `validatorCompiler`: compiles the route schema's querystring or body with the server's ajv. */
  compiler: FastifySchemaCompiler<FastifySchema>;
  /** The input as the route's validator makes it, or the AppError that refuses it (a JsonBytes body, read by its handler). */
  check(raw: unknown): Record<string, unknown>;
}

/** The object the multipart hook has already read (inputOf and the uploads): its validator does not read it again. */
export const PREPARED = Symbol('prepared input');

/**
 * The validation of a route's input, from its schema: the raw query or body read as a plain object (inputOf),
 * `rules.prepare` run on it, then the compiled schema; a refusal is the error contract's 400 naming every bad field.
 * A valid input replaces request.query or request.body, so the handler reads it as checked.
 */
export function routeValidation(rules: InputRules): RouteValidation {
  let run: ((raw: unknown) => Record<string, unknown>) | undefined;
  const compile = (schema: Json) => {
    const omitted = new Set(rules.omit ?? []);
    const properties: Json = {};
    for (const [field, s] of Object.entries((schema.properties ?? {}) as Json)) if (!omitted.has(field)) properties[field] = rules.override?.[field] ?? s;
    const required = ((schema.required ?? []) as string[]).filter((f) => !omitted.has(f));
    const validate: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null } = ajv.compile({ ...schema, properties, required });
    // Titles of the fields the schema takes: the rules' (a manifest's field schemas), else the schema's own.
    const props = (rules.props ? Object.fromEntries(Object.keys(properties).filter((f) => rules.props![f]).map((f) => [f, rules.props![f]])) : properties) as Record<string, FieldSchema>;
    return (raw: unknown) => {
      const input = raw && typeof raw === 'object' && PREPARED in raw ? (raw as Record<string, unknown>) : inputOf(raw, rules.source);
      let aside: [string, unknown][] | undefined;
      if (rules.setAside) {
        for (const [field, value] of Object.entries(input)) {
          if (!rules.setAside(field, value)) continue;
          (aside ??= []).push([field, value]);
          delete input[field];
        }
      }
      rules.prepare?.(input);
      if (!validate(input)) throw refusal(validate.errors!, input, props, required);
      if (aside) for (const [field, value] of aside) input[field] = value;
      return input;
    };
  };
  return {
    compiler: ({ schema, httpPart }) => {
      // A route's input is its querystring or its body (routeSchemaOf); headers and params are the transport's.
      if (httpPart !== 'querystring' && httpPart !== 'body') return () => true;
      const one = compile(schema as Json);
      run = one;
      return (raw: unknown) => {
        // A body its handler reads itself (JsonBytes) is checked by `check` once read.
        if (raw instanceof JsonBytes) return { value: raw };
        try {
          return { value: one(raw) };
        } catch (error) {
          return { error: error as Error };
        }
      };
    },
    check: (raw) => {
      if (!run) throw new Error('the route was not compiled');
      return run(raw);
    },
  };
}
