// The pieces every route schema is built of: where a call's input comes from, a field schema as a caller sends it
// and as an answer carries it, and the failure envelope of server/errors.ts.
import type { ActionDecl, FieldSchema } from '../../kernel/manifest/types.ts';

export type Json = Record<string, unknown>;
export type InputSource = 'query' | 'json' | 'multipart';

/** Strings without a declared maxLength are capped, so a record cannot be stuffed with megabytes of text. */
export const DEFAULT_MAX_STRING = 2000;
/** The field whose value a versioned write sends back (server/crud/versions.ts). */
export const VERSION_FIELD = 'updatedAt';

export const inputSource = (action: Pick<ActionDecl, 'input' | 'method'>): InputSource =>
  action.input ?? (action.method === 'GET' || action.method === 'DELETE' ? 'query' : 'json');

const allowsString = (schema: FieldSchema) => schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/** The JSON Schema a caller's value is checked against: the engine's keywords removed, strings capped. */
export function callerSchema(schema: FieldSchema): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || key === 'readOnly' || key === 'writeOnly' || key === 'default') continue;
    out[key] = value;
  }
  if (allowsString(schema) && !schema['x-json'] && schema.maxLength === undefined && !schema.enum) out.maxLength = DEFAULT_MAX_STRING;
  return out;
}

/** A field schema as callers see it: the engine's own keywords dropped (JSON Schema 2020-12 is OpenAPI 3.1's). */
export function publicSchema(schema: FieldSchema, forInput: boolean): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(forInput ? callerSchema(schema) : schema)) {
    if (key.startsWith('x-') || key === 'title') continue;
    if (key === 'items' && value && typeof value === 'object' && !Array.isArray(value)) out.items = publicSchema(value as FieldSchema, forInput);
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, FieldSchema>).map(([k, v]) => [k, publicSchema(v, forInput)]));
    } else out[key] = value;
  }
  if (schema.title) out.title = schema.title;
  return forInput ? out : openObjects(out);
}

/**
 * An answer's object without `additionalProperties` is open, as JSON Schema reads it; said outright, because the
 * serializer (fast-json-stringify) writes only the properties a schema names unless it is told the rest may be there.
 */
function openObjects(schema: Json): Json {
  const out: Json = { ...schema };
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes('object') && out.additionalProperties === undefined) out.additionalProperties = true;
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = openObjects(out.items as Json);
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, Json>).map(([k, v]) => [k, openObjects(v)]));
  for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(out[key])) out[key] = (out[key] as Json[]).map(openObjects);
  return out;
}

/** `{result: false, message, code}` (server/errors.ts); an input error adds `fields`, a stale edit `stale`. */
export const FAILURE: Json = {
  type: 'object',
  description: 'a failure: its stable `code` (docs/manifests.md, "Error codes") and a sentence for people',
  required: ['result', 'message', 'code'],
  additionalProperties: true,
  properties: {
    result: { type: 'boolean', const: false },
    message: { type: 'string', description: 'a sentence for people; its wording may change' },
    code: { type: 'string', pattern: '^ERR_[A-Z_]+$' },
    fields: {
      type: 'array',
      description: 'input errors: every bad field at once (message is the first one)',
      items: {
        type: 'object',
        required: ['field', 'message'],
        additionalProperties: true,
        properties: {
          field: { type: 'string' },
          message: { type: 'string' },
          problem: { type: 'string', description: "the problem's stable code, to word it in another language (docs/manifests.md)" },
          params: { type: 'object', additionalProperties: true, description: 'the values the sentence names' },
          path: { type: 'array', items: { type: 'string' }, description: 'the path to the bad value inside the field' },
        },
      },
    },
    stale: {
      type: 'object',
      description: 'ERR_CONFLICT: who changed the record, when, and the record as it is now',
      additionalProperties: true,
      properties: { changedBy: { type: ['string', 'null'] }, changedAt: { type: ['string', 'null'] }, record: { type: 'object', additionalProperties: true } },
    },
  },
};
