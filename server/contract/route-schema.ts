// The one contract of a manifest call: its querystring or body, and its answer, as JSON Schema, derived from the
// manifest alone (this folder imports only kernel/). server/crud/routes.ts registers every call with it; Fastify
// serializes the answers from its response schema (fast-json-stringify) and @fastify/swagger writes /openapi.json
// from the registered routes, so the document is the routes' own contract and cannot drift from it.
import type { ActionDecl, FieldSchema, Manifest } from '../../kernel/manifest/types.ts';
import { recordNoun } from '../../kernel/manifest/fields.ts';
import { customAnswer } from './custom-answers.ts';
import { FAILURE, VERSION_FIELD, inputSource, publicSchema, type Json } from './schema-parts.ts';

export { DEFAULT_MAX_STRING, FAILURE, VERSION_FIELD, callerSchema, inputSource, type InputSource, type Json } from './schema-parts.ts';

/** Ids and relation ids are PostgreSQL `serial` (int4). */
const MAX_ID = 2_147_483_647;

export interface RouteSchema {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  querystring?: Json;
  body?: Json;
  /** Multipart bodies are read by server/plugins/uploads.ts: documented, never validated by Fastify. */
  consumes?: string[];
  response: Record<string, Json>;
}

/** The record's fields as the engine sees them (server/crud/model.ts derives the same): ids bounded, who may set or read. */
export function recordFields(manifest: Manifest) {
  const ids = new Set(['id', ...(manifest.relations ?? []).map((r) => r.field)]);
  const props: Record<string, FieldSchema> = {};
  for (const [name, schema] of Object.entries(manifest.record?.properties ?? {})) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    props[name] =
      types.includes('integer') && !schema['x-json']
        ? { ...schema, minimum: schema.minimum ?? -Number.MAX_SAFE_INTEGER, maximum: schema.maximum ?? (ids.has(name) ? MAX_ID : Number.MAX_SAFE_INTEGER) }
        : schema;
  }
  const secrets = new Set(manifest.storage?.secrets ?? []);
  return {
    props,
    readable: Object.keys(props).filter((f) => !props[f].writeOnly && !secrets.has(f)),
    settable: Object.keys(props).filter((f) => !props[f].readOnly && !props[f]['x-derived']),
  };
}

/** `type` widened by null (an enum too), so a value the database holds as NULL is serialized as null. */
function nullable(schema: Json): Json {
  if (schema.anyOf || schema.oneOf || schema.const !== undefined) return { anyOf: [schema, { type: 'null' }] };
  const out = { ...schema };
  if (out.type !== undefined) {
    const types = Array.isArray(out.type) ? (out.type as string[]) : [out.type as string];
    out.type = types.includes('null') ? types : [...types, 'null'];
  } else if (!out.enum) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  return out;
}

/** The record as every call returns it: its readable fields (all present), related records' shown fields, compose objects. */
export function recordSchema(manifest: Manifest): Json {
  const { props, readable } = recordFields(manifest);
  const notNull = new Set(['id', ...(manifest.record?.required ?? [])]);
  const properties: Json = {};
  for (const f of readable) {
    if (props[f]['x-json']) {
      // A stored JSON value is answered as it is stored: written by an older version or by hand, it may not match
      // what the field takes today, and a serializer held to that schema would fail the whole list with a 500.
      properties[f] = { title: props[f].title, description: 'the JSON value as stored (what the field takes: see the add and edit calls)' };
      continue;
    }
    const schema = publicSchema(props[f], false);
    properties[f] = notNull.has(f) ? schema : nullable(schema);
  }
  for (const relation of manifest.relations ?? []) {
    properties[relation.name] = {
      type: ['object', 'null'],
      description: `the related ${relation.entity} (its ${(relation.show ?? ['id']).join(', ')})`,
      additionalProperties: true,
    };
  }
  for (const [name, parts] of Object.entries(manifest.compose ?? {})) {
    properties[name] = { type: 'object', description: `composed from ${Object.values(parts).join(', ')}`, additionalProperties: true };
  }
  return { type: 'object', title: manifest.title, additionalProperties: false, required: Object.keys(properties), properties };
}

const keyOf = (action: ActionDecl) => action.key ?? ['id'];
const VERSION_SCHEMA: Json = {
  type: 'string',
  format: 'date-time',
  description: "the record's updatedAt as it was read; when it no longer matches, the write is refused with 409 ERR_CONFLICT",
};

function objectSchema(props: Record<string, FieldSchema>, fields: Iterable<string>, required: string[]): Json {
  const properties: Json = {};
  for (const f of fields) if (props[f]) properties[f] = publicSchema(props[f], true);
  const req = required.filter((f) => f in properties);
  return { type: 'object', additionalProperties: false, properties, ...(req.length ? { required: req } : {}) };
}

/** An `eq` filter takes a value of its field's type, range and format (the value is compared, not stored: no pattern). */
function eqFilterSchema(own: FieldSchema): Json {
  const schema: Json = { type: own.type, enum: own.enum, format: own.format, maxLength: 200, minimum: own.minimum, maximum: own.maximum, title: own.title };
  return Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined));
}

function listInput(manifest: Manifest, props: Record<string, FieldSchema>, paging: boolean): Json {
  const list = manifest.list ?? {};
  const properties: Json = paging
    ? {
        page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page number' },
        pageSize: { type: 'integer', minimum: 1, maximum: 1000, default: list.defaultPageSize ?? 20, description: 'rows per page' },
        sortBy: { type: 'string', enum: ['none', ...(list.sortable ?? [])], description: 'a sortable field; none or absent: the default order' },
        sortOrder: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
        after: {
          type: 'string',
          minLength: 1,
          maxLength: 4000,
          description:
            "the `next` cursor of the previous page, sent with this page's number: the page is then read from the row after the previous page's last one (fast however deep); a cursor of another order or other filters is ignored",
        },
      }
    : {};
  const required: string[] = [];
  for (const filter of list.filters ?? []) {
    const param = filter.param ?? filter.field;
    const own = filter.field.includes('.') ? undefined : props[filter.field];
    const base = filter.op === 'eq' && own ? eqFilterSchema(own) : { type: 'string', maxLength: 200 };
    const how = filter.op === 'eq' ? 'equal to' : filter.op === 'contains' ? 'containing' : 'starting with';
    properties[param] = { ...base, description: `filter: ${filter.field} ${how} the value (case-insensitive for text); empty = no filter` };
    if (filter.required) required.push(param);
  }
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

/** The input of a call, by kind, as the handlers of server/crud/kinds/ accept it. */
function actionInput(manifest: Manifest, action: ActionDecl): Json {
  if (action.kind === 'custom' || !manifest.record) {
    const schema = (action.inputSchema ?? { type: 'object', properties: {} }) as Json;
    return { additionalProperties: false, ...stripEngineKeywords(schema), type: 'object' };
  }
  const { props, settable } = recordFields(manifest);
  const versioned = VERSION_FIELD in props;
  switch (action.kind) {
    case 'list':
      return listInput(manifest, props, true);
    case 'create': {
      const required = (manifest.record.required ?? []).filter((f) => settable.includes(f) && props[f].default === undefined);
      return objectSchema(props, settable, required);
    }
    case 'update': {
      const key = keyOf(action);
      const schema = objectSchema(props, new Set([...key, ...(action.writable ?? settable), ...(action.locked ?? [])]), key);
      if (versioned) (schema.properties as Json)[VERSION_FIELD] = VERSION_SCHEMA;
      return schema;
    }
    case 'toggle':
    case 'destroy': {
      const schema = objectSchema(props, keyOf(action), keyOf(action));
      if (versioned) (schema.properties as Json)[VERSION_FIELD] = VERSION_SCHEMA;
      return schema;
    }
    case 'destroyAll':
      return { type: 'object', additionalProperties: false, properties: {} };
    case 'destroyByFilter':
      return { ...listInput(manifest, props, false), description: 'at least one filter must be filled' };
  }
}

/** A custom call's JSON Schema as a caller reads it: the engine's x- keywords dropped, at every depth. */
function stripEngineKeywords(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-')) continue;
    if ((key === 'properties' || key === 'patternProperties') && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, stripEngineKeywords(v as Json)]));
    } else if (key === 'items' && value && typeof value === 'object' && !Array.isArray(value)) out.items = stripEngineKeywords(value as Json);
    else out[key] = value;
  }
  return out;
}

const KEPT: Json = {
  type: 'object',
  description: 'rows kept because other records use them',
  additionalProperties: false,
  required: ['count', 'by', 'records'],
  properties: {
    count: { type: 'integer' },
    by: { type: 'array', items: { type: 'string' }, description: 'the entities that use them' },
    records: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'the first kept rows' },
  },
};

/** What `data` holds on success. */
function actionOutput(manifest: Manifest, action: ActionDecl): Json {
  if (action.kind === 'custom' || !manifest.record) return customAnswer(action.handler);
  const record = recordSchema(manifest);
  switch (action.kind) {
    case 'list':
      return {
        type: 'object',
        additionalProperties: false,
        required: ['rows', 'count'],
        properties: {
          rows: { type: 'array', items: record },
          count: { type: 'integer', description: 'rows matching the filters, exact up to LIST_COUNT_LIMIT' },
          countCapped: { type: 'boolean', description: 'true when more rows match than `count` (the limit): "10,000+"' },
          next: { type: 'string', description: 'when the page is full: the cursor to send as `after` with the next page number' },
        },
      };
    case 'create':
    case 'update':
    case 'toggle':
      return record;
    case 'destroy':
      return { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'integer' } } };
    case 'destroyAll':
    case 'destroyByFilter':
      return { type: 'object', additionalProperties: false, required: ['count', 'kept'], properties: { count: { type: 'integer', description: 'rows deleted' }, kept: KEPT } };
  }
}

/** The answer of every call: `{result: true, data}`. */
export const envelope = (data: Json, description = 'success: the call was done'): Json => ({
  type: 'object',
  description,
  additionalProperties: false,
  required: ['result', 'data'],
  properties: { result: { type: 'boolean', const: true }, data },
});

/** The failures, as every call may answer them (server/errors.ts): status 4xx and 5xx. */
export const FAILURES: Record<string, Json> = { '4xx': FAILURE, '5xx': FAILURE };

const KIND_SUMMARY: Record<ActionDecl['kind'], string> = {
  list: 'List',
  create: 'Add',
  update: 'Edit',
  destroy: 'Delete',
  destroyAll: 'Delete all',
  destroyByFilter: 'Delete by filter',
  toggle: 'Switch',
  custom: 'Call',
};

/** `List platforms`, `Add platform`, `Delete all builds`; a custom call by its name. */
function summaryOf(manifest: Manifest, name: string, action: ActionDecl): string {
  if (action.ui?.label) return action.ui.label;
  const plural = /^[A-Z][a-z]/.test(manifest.title) ? manifest.title[0].toLowerCase() + manifest.title.slice(1) : manifest.title;
  if (action.kind === 'custom') return `${name} (${plural})`;
  const many = action.kind === 'list' || action.kind === 'destroyAll' || action.kind === 'destroyByFilter';
  return `${KIND_SUMMARY[action.kind]} ${many ? plural : recordNoun(manifest)}`;
}

function describeAction(manifest: Manifest, name: string, action: ActionDecl): string {
  const lines: string[] = [];
  if (action.public) lines.push('A public device call (docs/device-api.md): no token needed, a token sent is ignored; limited per client address.');
  else lines.push(`Roles: ${action.roles.join(', ')}.`);
  if (action.kind === 'custom') lines.push(`Handler \`${action.handler}\`.`);
  else if (action.kind !== 'list') lines.push('Audited in the users log.');
  if (action.refuseWhen) {
    const rule = action.refuseWhen;
    lines.push(`Refused with 409 ERR_REFUSED when ${rule.field} ${'equals' in rule ? `is ${JSON.stringify(rule.equals)}` : `is not ${JSON.stringify(rule.notEquals)}`}: "${rule.message}".`);
  }
  if (action.check) lines.push(`The record is also checked by \`${action.check}\` (400 ERR_VALIDATION).`);
  if (action.ui?.confirm) lines.push(`The panel asks first: "${action.ui.confirm}"`);
  lines.push(`Declared as \`${manifest.entity}.actions.${name}\` (kind \`${action.kind}\`).`);
  return lines.join('\n\n');
}

/**
 * A JSON field sent in a query string (the device lookup's `platform`, SPEC): documented as a parameter whose
 * content is application/json, so a generated client sends it as JSON text; the call's own parse reads it.
 */
function queryParameterSchema(schema: Json, jsonFields: Set<string>): Json {
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([k, v]) => [k, jsonFields.has(k) ? { ...v, 'x-consume': 'application/json' } : v]),
  );
  return { ...schema, properties };
}

/** Fields of an input that hold JSON values (x-json, objects, arrays): in a query or a form they travel as JSON text. */
function jsonFieldsOf(manifest: Manifest, action: ActionDecl): Set<string> {
  const props = (action.kind === 'custom' ? (action.inputSchema as { properties?: Record<string, FieldSchema> } | undefined)?.properties : manifest.record?.properties) ?? {};
  return new Set(Object.entries(props).filter(([, s]) => s['x-json']).map(([k]) => k));
}

/** The schema of one call of `manifest` (its name in `manifest.actions`). */
export function routeSchemaOf(manifest: Manifest, name: string): RouteSchema {
  const action = manifest.actions[name];
  const input = actionInput(manifest, action);
  const source = inputSource(action);
  const out: RouteSchema = {
    operationId: `${manifest.entity}.${name}`,
    summary: summaryOf(manifest, name, action),
    description: describeAction(manifest, name, action),
    tags: [manifest.entity],
    security: action.public ? [] : [{ token: [] }],
    response: { '200': envelope(actionOutput(manifest, action)), ...FAILURES },
  };
  if (source === 'query') out.querystring = queryParameterSchema(input, jsonFieldsOf(manifest, action));
  else if (source === 'multipart') {
    const properties = { ...((input.properties ?? {}) as Json) };
    for (const f of Object.keys(manifest.storage?.files ?? {})) properties[f] = { type: 'string', contentMediaType: 'application/octet-stream', description: 'an uploaded file' };
    // JSON fields of a form travel as JSON text.
    for (const f of jsonFieldsOf(manifest, action)) if (properties[f]) properties[f] = { type: 'string', contentMediaType: 'application/json', description: 'the value as JSON text' };
    out.body = { ...input, properties };
    out.consumes = ['multipart/form-data'];
  } else out.body = input;
  return out;
}
