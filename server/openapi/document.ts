// The OpenAPI 3.1 document of the whole API, derived from the manifests like the routes themselves: every call of
// schemas/ with its method, path, parameters, request and response schemas from the record schema, the roles
// (`x-roles`) and the failures it can answer with their codes; plus login, logout, the GitLab webhook, the
// stored files and the system paths. Served at /openapi.json and rendered at /docs (server/openapi/page.ts).
import type { ActionDecl, FieldSchema, Manifest } from '../../kernel/manifest/types.ts';
import { ERROR_CODES, type ErrorCode } from '../error-codes.ts';
import { buildModel, type EntityModel } from '../model/model.ts';
import { callerSchema, inputSource } from '../core/input.ts';
import { VERSION_FIELD } from '../crud/versions.ts';
import type { CustomHandler } from '../actions/types.ts';
import { recordNoun } from '../../kernel/manifest/fields.ts';
import { writes } from '../crud/routes.ts';

type Json = Record<string, unknown>;

export interface DocumentOptions {
  /** URL folders of stored files (`whitelabels`, `builds`), served at /<folder>/<path>. */
  fileFolders: string[];
  /** The GitLab webhook's path, when the server registers it. */
  webhookPath?: string;
  /** The built panel is served (its files and the single-page fallback). */
  hasPanel: boolean;
  /** Version of the API (package.json). */
  version: string;
  /** The application's custom handlers (which of them write). */
  handlers: Record<string, CustomHandler>;
}

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

/** The statuses a failure may answer with, each with the codes it carries there. */
const byStatus = (codes: ErrorCode[]) => {
  const out = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    out.set(status, [...(out.get(status) ?? []), code]);
  }
  return out;
};

/** A field schema as callers see it: the engine's own keywords dropped (JSON Schema 2020-12 is OpenAPI 3.1's). */
function publicSchema(schema: FieldSchema, forInput: boolean): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(forInput ? callerSchema(schema) : schema)) {
    if (key.startsWith('x-')) continue;
    if (key === 'items' && value && typeof value === 'object') out.items = publicSchema(value as FieldSchema, forInput);
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, FieldSchema>).map(([k, v]) => [k, publicSchema(v, forInput)]));
    } else out[key] = value;
  }
  if (!forInput && schema.default !== undefined) out.default = schema.default;
  // A JSON field may also be sent as its JSON text (a query string or a form field).
  if (forInput && schema['x-json']) return { anyOf: [out, { type: 'string', description: 'the value as JSON text' }] };
  return out;
}

function objectSchema(props: Record<string, FieldSchema>, fields: Iterable<string>, required: string[], forInput: boolean): Json {
  const properties: Json = {};
  for (const f of fields) if (props[f]) properties[f] = publicSchema(props[f], forInput);
  const req = required.filter((f) => f in properties);
  return { type: 'object', additionalProperties: false, properties, ...(req.length ? { required: req } : {}) };
}

const recordRef = (entity: string) => ({ $ref: `#/components/schemas/${entity}` });

/** The record as the API returns it: readable fields, plus the related records' shown fields and compose objects. */
function recordSchema(model: EntityModel): Json {
  const properties: Json = {};
  for (const f of model.readable) properties[f] = publicSchema(model.props[f], false);
  for (const relation of model.manifest.relations ?? []) {
    properties[relation.name] = {
      type: ['object', 'null'],
      description: `the related ${relation.entity} (its ${(relation.show ?? ['id']).join(', ')})`,
      additionalProperties: true,
    };
  }
  for (const name of Object.keys(model.manifest.compose ?? {})) {
    properties[name] = { type: ['object', 'null'], description: `composed from ${Object.values(model.manifest.compose![name]).join(', ')}`, additionalProperties: true };
  }
  return { type: 'object', title: model.manifest.title, description: model.manifest.description, properties };
}


const keyOf = (action: ActionDecl) => action.key ?? ['id'];
const VERSION_SCHEMA: Json = {
  type: 'string',
  format: 'date-time',
  description: "the record's updatedAt as it was read; when it no longer matches, the write is refused with 409 ERR_CONFLICT",
};

function listInput(model: EntityModel): Json {
  const list = model.manifest.list ?? {};
  const properties: Json = {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page number' },
    pageSize: { type: 'integer', minimum: 1, maximum: 1000, default: list.defaultPageSize ?? 20, description: 'rows per page' },
    sortBy: { enum: ['none', ...(list.sortable ?? [])], description: 'a sortable field; none or absent: the default order' },
    sortOrder: { enum: ['asc', 'desc'], default: 'asc' },
    after: {
      type: 'string',
      description:
        'the `next` cursor of the previous page, sent with this page\'s number: the page is then read from the row after the previous page\'s last one (fast however deep); a cursor of another order or other filters is ignored',
    },
  };
  const required: string[] = [];
  for (const filter of list.filters ?? []) {
    const param = filter.param ?? filter.field;
    const own = filter.field.includes('.') ? undefined : model.props[filter.field];
    const base = filter.op === 'eq' && own ? publicSchema(own, true) : { type: 'string', maxLength: 200 };
    const how = filter.op === 'eq' ? 'equal to' : filter.op === 'contains' ? 'containing' : 'starting with';
    properties[param] = { ...base, description: `filter: ${filter.field} ${how} the value (case-insensitive for text); empty = no filter` };
    if (filter.required) required.push(param);
  }
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

/** The input of a call of an entity with a table, by kind, as the handlers of server/crud/handlers.ts accept it. */
function actionInput(model: EntityModel | undefined, action: ActionDecl): Json {
  if (action.kind === 'custom' || !model) {
    const schema = (action.inputSchema ?? { type: 'object', properties: {} }) as Json;
    return { additionalProperties: false, ...stripEngineKeywords(schema) };
  }
  const props = model.props;
  const versioned = model.hasColumn(VERSION_FIELD);
  switch (action.kind) {
    case 'list':
      return listInput(model);
    case 'create': {
      const required = (model.manifest.record?.required ?? []).filter((f) => model.settable.includes(f) && props[f].default === undefined);
      return objectSchema(props, model.settable, required, true);
    }
    case 'update': {
      const key = keyOf(action);
      const fields = [...new Set([...key, ...(action.writable ?? model.settable), ...(action.locked ?? [])])];
      const schema = objectSchema(props, fields, key, true);
      if (versioned) (schema.properties as Json)[VERSION_FIELD] = VERSION_SCHEMA;
      return schema;
    }
    case 'toggle':
    case 'destroy': {
      const schema = objectSchema(props, keyOf(action), keyOf(action), true);
      if (versioned) (schema.properties as Json)[VERSION_FIELD] = VERSION_SCHEMA;
      return schema;
    }
    case 'destroyAll':
      return { type: 'object', additionalProperties: false, properties: {} };
    case 'destroyByFilter': {
      const schema = listInput(model);
      const properties = { ...(schema.properties as Json) };
      for (const paging of ['page', 'pageSize', 'sortBy', 'sortOrder', 'after']) delete properties[paging];
      return { type: 'object', additionalProperties: false, properties, description: 'at least one filter must be filled' };
    }
  }
}

function stripEngineKeywords(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-')) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, stripEngineKeywords(v as Json)]));
    } else if (key === 'items' && value && typeof value === 'object' && !Array.isArray(value)) out.items = stripEngineKeywords(value as Json);
    else out[key] = value;
  }
  return out;
}

const KEPT: Json = {
  type: 'object',
  description: 'rows kept because other records use them',
  properties: {
    count: { type: 'integer' },
    by: { type: 'array', items: { type: 'string' }, description: 'the entities that use them' },
    records: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'the first kept rows' },
  },
};

/** What `data` holds on success. */
function actionOutput(model: EntityModel | undefined, action: ActionDecl): Json {
  if (!model || action.kind === 'custom') return { description: 'see the call description', type: ['object', 'array', 'null'] };
  switch (action.kind) {
    case 'list':
      return {
        type: 'object',
        required: ['rows', 'count'],
        properties: {
          rows: { type: 'array', items: recordRef(model.entity) },
          count: { type: 'integer', description: 'rows matching the filters, exact up to LIST_COUNT_LIMIT' },
          countCapped: { type: 'boolean', description: 'true when more rows match than `count` (the limit): "10,000+"' },
          next: { type: 'string', description: 'when the page is full: the cursor to send as `after` with the next page number' },
        },
      };
    case 'create':
    case 'update':
    case 'toggle':
      return recordRef(model.entity);
    case 'destroy':
      return { type: 'object', properties: { id: { type: 'integer' } } };
    case 'destroyAll':
    case 'destroyByFilter':
      return { type: 'object', properties: { count: { type: 'integer', description: 'rows deleted' }, kept: KEPT } };
  }
}

/** The failures a call can answer with. */
function failuresOf(model: EntityModel | undefined, action: ActionDecl): ErrorCode[] {
  const codes: ErrorCode[] = ['ERR_VALIDATION', 'ERR_MALFORMED', 'ERR_TOO_LARGE'];
  if (action.public) codes.push('ERR_RATE_LIMIT');
  else codes.push('ERR_AUTH', 'ERR_ROLE');
  if (inputSource(action) === 'multipart') codes.push('ERR_MEDIA_TYPE');
  const keyed = ['update', 'destroy', 'toggle'].includes(action.kind) || (action.kind === 'list' && model?.manifest.list?.filters?.some((f) => f.required));
  if (keyed || action.kind === 'custom') codes.push('ERR_NOT_FOUND');
  if (action.kind === 'create' || action.kind === 'update') {
    if (model?.manifest.storage?.unique?.length) codes.push('ERR_UNIQUE');
  }
  if (['update', 'toggle', 'destroy'].includes(action.kind) && model?.hasColumn(VERSION_FIELD)) codes.push('ERR_CONFLICT');
  if (action.refuseWhen || action.forRole) codes.push('ERR_REFUSED');
  if (['destroy', 'destroyAll', 'destroyByFilter'].includes(action.kind) || action.kind === 'custom') codes.push('ERR_REFERENCED');
  codes.push('ERR_INTERNAL', 'ERR_UNAVAILABLE');
  return codes;
}

function responses(success: Json | undefined, codes: ErrorCode[], successText = 'success'): Json {
  const out: Json = {};
  if (success) {
    out['200'] = {
      description: successText,
      content: { 'application/json': { schema: { type: 'object', required: ['result', 'data'], properties: { result: { const: true }, data: success } } } },
    };
  }
  for (const [status, list] of [...byStatus(codes)].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${ERROR_CODES[c].text}`).join('; '),
      ...(status === 429 || status === 503 ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
      content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Failure' }, { properties: { code: { enum: list } } }] } } },
    };
  }
  return out;
}

/** `GET <list path>/export.csv` (server/crud/export.ts): the list's filters and sort, every matching row as CSV. */
function exportOperation(manifest: Manifest, name: string, action: ActionDecl, listInput: Json, failures: ErrorCode[]): Json {
  const parameters = queryParameters(listInput).filter((p) => p.name !== 'page' && p.name !== 'pageSize' && p.name !== 'after');
  const refusals = responses(undefined, failures);
  return {
    operationId: `${manifest.entity}.${name}.export`,
    tags: [manifest.entity],
    summary: `Export ${manifest.title} as CSV`,
    description:
      'Every row matching the filters, in the sort asked for (page and pageSize are ignored), with the list\'s columns ' +
      'as the screen shows them; streamed in batches, so memory does not grow with the rows. Cells starting with = + - @ ' +
      'get a leading quote. Each export writes a users-log row. HEAD is not offered.',
    'x-roles': action.roles,
    security: [{ token: [] }],
    parameters,
    responses: { '200': { description: 'the CSV file (UTF-8 with a byte order mark, CRLF line ends)', content: { 'text/csv': { schema: { type: 'string' } } } }, ...refusals },
  };
}

/** Query parameters of an input schema, one per field. */
function queryParameters(input: Json): Json[] {
  const properties = (input.properties ?? {}) as Record<string, Json>;
  const required = new Set((input.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}

function describeAction(manifest: Manifest, name: string, action: ActionDecl, handlers: Record<string, CustomHandler>): string {
  const lines: string[] = [];
  if (action.public) lines.push('A public device call (docs/device-api.md): no token needed, a token sent is ignored; limited per client address.');
  else lines.push(`Roles: ${action.roles.join(', ')}.`);
  if (action.kind === 'custom') lines.push(`Handler \`${action.handler}\`${handlers[action.handler!]?.write ? ' (writes, audited)' : ''}.`);
  else if (action.kind !== 'list') lines.push('Audited in the users log.');
  if (action.refuseWhen) lines.push(`Refused with 409 ERR_REFUSED when ${action.refuseWhen.field} ${'equals' in action.refuseWhen ? `is ${JSON.stringify(action.refuseWhen.equals)}` : `is not ${JSON.stringify(action.refuseWhen.notEquals)}`}: "${action.refuseWhen.message}".`);
  if (action.check) lines.push(`The record is also checked by \`${action.check}\` (400 ERR_VALIDATION).`);
  if (action.method === 'GET' && writes(action, handlers)) lines.push('A GET that writes: HEAD is refused with 405 ERR_METHOD.');
  if (action.ui?.confirm) lines.push(`The panel asks first: "${action.ui.confirm}"`);
  lines.push(`Declared as \`${manifest.entity}.actions.${name}\` (kind \`${action.kind}\`).`);
  return lines.join('\n\n');
}

const lower = (method: string) => method.toLowerCase();

/** `List platforms`, `Add platform`, `Delete all builds`; a custom call by its name. */
function summaryOf(manifest: Manifest, name: string, action: ActionDecl): string {
  const plural = /^[A-Z][a-z]/.test(manifest.title) ? manifest.title[0].toLowerCase() + manifest.title.slice(1) : manifest.title;
  if (action.kind === 'custom') return `${name} (${plural})`;
  const many = action.kind === 'list' || action.kind === 'destroyAll' || action.kind === 'destroyByFilter';
  return `${KIND_SUMMARY[action.kind]} ${many ? plural : recordNoun(manifest)}`;
}

/** Fastify's `/a/:b` and `/a/*` as OpenAPI's `/a/{b}` and `/a/{path}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');

/** The OpenAPI 3.1 document of the server built from `manifests`. */
export function openApiDocument(manifests: Manifest[], options: DocumentOptions): Json {
  const paths: Record<string, Json> = {};
  const schemas: Json = {
    ErrorCode: {
      enum: Object.keys(ERROR_CODES),
      description: Object.entries(ERROR_CODES).map(([code, { status, text }]) => `\`${code}\` (${status}): ${text}`).join('\n\n'),
    },
    Failure: {
      type: 'object',
      required: ['result', 'message', 'code'],
      properties: {
        result: { const: false },
        message: { type: 'string', description: 'a sentence for people; its wording may change' },
        code: { $ref: '#/components/schemas/ErrorCode' },
        fields: {
          type: 'array',
          description: 'input errors: every bad field at once (message is the first one)',
          items: {
            type: 'object',
            required: ['field', 'message'],
            properties: {
              field: { type: 'string' },
              message: { type: 'string' },
              problem: { type: 'string', description: "the problem's stable code, to word it in another language (docs/manifests.md)" },
              params: { type: 'object', description: 'the values the sentence names' },
              path: { type: 'array', items: { type: 'string' }, description: 'the path to the bad value inside the field' },
            },
          },
        },
        stale: {
          type: 'object',
          description: 'ERR_CONFLICT: who changed the record, when, and the record as it is now',
          properties: { changedBy: { type: ['string', 'null'] }, changedAt: { type: ['string', 'null'] }, record: { type: 'object' } },
        },
      },
    },
  };
  const tags: Json[] = [];
  const add = (path: string, method: string, operation: Json) => {
    (paths[path] ??= {})[lower(method)] = operation;
  };

  for (const manifest of [...manifests].sort((a, b) => a.entity.localeCompare(b.entity))) {
    const model = manifest.table && manifest.record ? buildModel(manifest) : undefined;
    if (model) schemas[manifest.entity] = recordSchema(model);
    tags.push({ name: manifest.entity, description: [manifest.title, manifest.description].filter(Boolean).join(': ') });
    for (const [name, action] of Object.entries(manifest.actions)) {
      const input = actionInput(model, action);
      const source = inputSource(action);
      const operation: Json = {
        operationId: `${manifest.entity}.${name}`,
        tags: [manifest.entity],
        summary: action.ui?.label ?? summaryOf(manifest, name, action),
        description: describeAction(manifest, name, action, options.handlers),
        'x-roles': action.public ? [] : action.roles,
        'x-kind': action.kind,
        security: action.public ? [] : [{ token: [] }],
      };
      if (source === 'query') operation.parameters = queryParameters(input);
      else {
        const media = source === 'multipart' ? 'multipart/form-data' : 'application/json';
        const files = Object.keys(manifest.storage?.files ?? {});
        const schema = source === 'multipart' && files.length ? withFileFields(input, files) : input;
        operation.requestBody = { required: true, content: { [media]: { schema } } };
      }
      operation.responses = responses(actionOutput(model, action), failuresOf(model, action));
      add(action.path, action.method, operation);
      if (action.kind === 'list' && model && manifest.list?.columns?.length) add(`${action.path}/export.csv`, 'GET', exportOperation(manifest, name, action, input, failuresOf(model, action)));
      if (action.method === 'GET' && writes(action, options.handlers)) {
        add(action.path, 'HEAD', {
          operationId: `${manifest.entity}.${name}.head`,
          tags: [manifest.entity],
          summary: 'HEAD is refused: this GET writes',
          'x-roles': action.public ? [] : action.roles,
          security: action.public ? [] : [{ token: [] }],
          responses: responses(undefined, ['ERR_METHOD']),
        });
      }
    }
  }

  addSystemCalls(add, options);
  return {
    openapi: '3.1.0',
    info: {
      title: 'White-label admin panel API',
      version: options.version,
      description:
        'Generated from the manifests (schemas/). Every call answers `{"result": true, "data": ...}` with 200, or `{"result": false, "message", "code"}` ' +
        'with the status and stable code listed under each call (input errors add `fields`, every bad field at once). Staff calls need the token of ' +
        '`POST /v1/user/login` in the `Authorization` header; `x-roles` lists the roles that may use a call. A live socket (socket.io, path `/socket.io`) ' +
        'sends `dataQueue` items; see docs/manifests.md.',
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas,
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'the token of POST /v1/user/login, alone or as `Bearer <token>`' } },
      headers: { RetryAfter: { description: 'seconds to wait before trying again', schema: { type: 'integer' } } },
    },
  };
}

function withFileFields(input: Json, files: string[]): Json {
  const properties = { ...((input.properties ?? {}) as Json) };
  for (const f of files) properties[f] = { type: 'string', contentMediaType: 'application/octet-stream', description: 'an uploaded file' };
  return { ...input, properties };
}

function addSystemCalls(add: (path: string, method: string, operation: Json) => void, options: DocumentOptions): void {
  const envelope = (data: Json) => data;
  add('/v1/user/login', 'POST', {
    operationId: 'user.login',
    tags: ['session'],
    summary: 'Log in',
    description: 'Any staff account. Limited per account and per client address (429 with Retry-After); every failed or refused attempt is audited.',
    'x-roles': [],
    security: [],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', additionalProperties: false, required: ['email', 'password'], properties: { email: { type: 'string', minLength: 1, maxLength: 254 }, password: { type: 'string', minLength: 1, maxLength: 200 } } },
        },
      },
    },
    responses: responses(
      envelope({
        type: 'object',
        properties: {
          token: { type: 'string', description: 'send it in the Authorization header' },
          user: { type: 'object', properties: { id: { type: 'integer' }, email: { type: 'string' }, role: { enum: ['admin', 'developer', 'tester', 'customercare'] } } },
        },
      }),
      ['ERR_VALIDATION', 'ERR_MALFORMED', 'ERR_AUTH', 'ERR_TOO_LARGE', 'ERR_RATE_LIMIT', 'ERR_INTERNAL', 'ERR_UNAVAILABLE'],
    ),
  });
  add('/v1/user/logout', 'POST', {
    operationId: 'user.logout',
    tags: ['session'],
    summary: 'Log out',
    description: 'Revokes the token sent; its live socket is disconnected.',
    'x-roles': ['admin', 'developer', 'tester', 'customercare'],
    security: [{ token: [] }],
    requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties: {} } } } },
    responses: responses({ type: 'object', additionalProperties: false }, ['ERR_VALIDATION', 'ERR_MALFORMED', 'ERR_AUTH', 'ERR_INTERNAL', 'ERR_UNAVAILABLE']),
  });
  if (options.webhookPath) {
    add(options.webhookPath, 'POST', {
      operationId: 'gitlab.webhook',
      tags: ['gitlab'],
      summary: "GitLab's pipeline events",
      description: "Set as the project's pipeline webhook; authenticated by the `X-Gitlab-Token` header (GITLAB_WEBHOOK_SECRET), not by a staff token. 404 while GitLab is not configured; both checked before the body (at most 1 MiB) is read.",
      'x-roles': [],
      security: [],
      parameters: [{ name: 'X-Gitlab-Token', in: 'header', required: true, schema: { type: 'string' } }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { object_kind: { const: 'pipeline' }, object_attributes: { type: 'object', required: ['id', 'status'], properties: { id: { type: 'integer' }, status: { type: 'string' } } } },
            },
          },
        },
      },
      responses: responses({ type: 'object', additionalProperties: true }, ['ERR_VALIDATION', 'ERR_MALFORMED', 'ERR_AUTH', 'ERR_NOT_FOUND', 'ERR_TOO_LARGE', 'ERR_INTERNAL', 'ERR_UNAVAILABLE']),
    });
  }
  add('/config.json', 'GET', {
    operationId: 'system.config',
    tags: ['system'],
    summary: "The panel's settings",
    description: 'Served on the panel hosts only (403 ERR_HOST elsewhere).',
    security: [],
    responses: {
      '200': {
        description: 'where the panel finds the API',
        content: { 'application/json': { schema: { type: 'object', properties: { backendUrl: { type: 'string' }, availableHosts: { type: 'array', items: { type: 'string' } } } } } },
      },
      ...responses(undefined, ['ERR_HOST']),
    },
  });
  add('/healthz', 'GET', {
    operationId: 'system.health',
    tags: ['system'],
    summary: 'Liveness',
    security: [],
    responses: responses({ type: 'object', properties: { status: { const: 'ok' } } }, []),
  });
  for (const folder of options.fileFolders) {
    add(`/${folder}/{path}`, 'GET', {
      operationId: `files.${folder}`,
      tags: ['files'],
      summary: `A stored file under /${folder}/`,
      description: 'Any host, no token (devices load them). Answered as a sandboxed document, never run as the panel.',
      security: [],
      parameters: [{ name: 'path', in: 'path', required: true, description: 'the file path below the folder (may hold /)', schema: { type: 'string' } }],
      responses: { '200': { description: 'the file', content: { 'application/octet-stream': {} } }, ...responses(undefined, ['ERR_MALFORMED', 'ERR_NOT_FOUND']) },
    });
  }
  add('/openapi.json', 'GET', {
    operationId: 'system.openapi',
    tags: ['system'],
    summary: 'This document',
    description: 'Served on the panel hosts unless API_DOCS=off.',
    security: [],
    responses: { '200': { description: 'the OpenAPI 3.1 document', content: { 'application/json': {} } } },
  });
  add('/docs', 'GET', {
    operationId: 'system.docs',
    tags: ['system'],
    summary: 'This document as a page',
    description: 'Served on the panel hosts unless API_DOCS=off.',
    security: [],
    responses: { '200': { description: 'an HTML page', content: { 'text/html': {} } } },
  });
  if (options.hasPanel) {
    add('/{path}', 'GET', {
      operationId: 'system.panel',
      tags: ['system'],
      summary: "The panel's files",
      description: 'The built panel; any other GET outside the API answers its index.html (the single-page fallback). Panel hosts only.',
      security: [],
      parameters: [{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': { description: 'a file of the panel', content: { 'text/html': {} } }, ...responses(undefined, ['ERR_HOST']) },
    });
  }
}
