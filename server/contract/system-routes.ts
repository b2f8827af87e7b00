// The contract of the calls no manifest declares: login and logout (server/plugins/auth.ts), GitLab's webhook
// (server/gitlab/pipelines.ts) and the CSV export of a list (server/crud/export.ts). Like the manifests' calls,
// each route is registered with its schema and /openapi.json reads it from there.
import type { Manifest } from '../../kernel/manifest/types.ts';
import { ROLES } from '../../kernel/roles.ts';
import { FAILURES, envelope, routeSchemaOf } from './route-schema.ts';
import type { Json } from './schema-parts.ts';

export const LOGIN_SCHEMA = {
  operationId: 'user.login',
  tags: ['session'],
  summary: 'Log in',
  description: 'Any staff account. Limited per account and per client address (429 with Retry-After); every failed or refused attempt is audited.',
  security: [],
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['email', 'password'],
    properties: { email: { type: 'string', minLength: 1, maxLength: 254 }, password: { type: 'string', minLength: 1, maxLength: 200 } },
  },
  response: {
    '200': envelope({
      type: 'object',
      additionalProperties: false,
      required: ['token', 'user'],
      properties: {
        token: { type: 'string', description: 'send it in the Authorization header' },
        user: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'email', 'role'],
          properties: { id: { type: 'integer' }, email: { type: 'string' }, role: { type: 'string', enum: [...ROLES] } },
        },
      },
    }),
    ...FAILURES,
  },
};

export const LOGOUT_SCHEMA = {
  operationId: 'user.logout',
  tags: ['session'],
  summary: 'Log out',
  description: 'Revokes the token sent; its live socket is disconnected.',
  security: [{ token: [] }],
  body: { type: 'object', additionalProperties: false, properties: {} },
  response: { '200': envelope({ type: 'object', additionalProperties: false, properties: {} }), ...FAILURES },
};

export const WEBHOOK_SCHEMA = {
  operationId: 'gitlab.webhook',
  tags: ['gitlab'],
  summary: "GitLab's pipeline events",
  description:
    "Set as the project's pipeline webhook; authenticated by the `X-Gitlab-Token` header (GITLAB_WEBHOOK_SECRET), not by a staff token. 404 while GitLab is not configured; both checked before the body (at most 1 MiB) is read. Other events than `Pipeline Hook` are answered 200 with `ignored`.",
  security: [],
  headers: { type: 'object', required: ['x-gitlab-token'], properties: { 'x-gitlab-token': { type: 'string' }, 'x-gitlab-event': { type: 'string' } } },
  body: {
    type: 'object',
    additionalProperties: true,
    properties: {
      object_kind: { type: 'string', description: '`pipeline` for the events this call reads; others are ignored' },
      object_attributes: { type: 'object', additionalProperties: true },
    },
    // Only a pipeline event is read: other events' bodies are answered `ignored` whatever they hold.
    if: { required: ['object_kind'], properties: { object_kind: { const: 'pipeline' } } },
    then: {
      required: ['object_attributes'],
      properties: {
        object_attributes: {
          type: 'object',
          required: ['id', 'status'],
          properties: {
            id: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'the pipeline id' },
            status: { type: 'string', pattern: '^[a-z_]{1,40}$', description: "the pipeline's status" },
          },
        },
      },
    },
  },
  response: {
    '200': envelope({ type: 'object', additionalProperties: false, properties: { ignored: { type: 'string' }, updated: { type: 'boolean', description: 'whether the pipeline the event names was changed' } } }),
    ...FAILURES,
  },
};

/** `GET <list path>/export.csv`: the list's filters and sort, every matching row as CSV. */
export function exportSchemaOf(manifest: Manifest, name: string): Json {
  const list = routeSchemaOf(manifest, name);
  const query = list.querystring as { properties: Json; required?: string[] };
  const properties = { ...query.properties };
  for (const paging of ['page', 'pageSize', 'after']) delete properties[paging];
  return {
    operationId: `${manifest.entity}.${name}.export`,
    tags: list.tags,
    summary: `Export ${manifest.title} as CSV`,
    description:
      "Every row matching the filters, in the sort asked for, with the list's columns as the screen shows them; streamed in batches, so " +
      'memory does not grow with the rows. Cells starting with = + - @ get a leading quote. Each export writes a users-log row. HEAD is not offered.\n\n' +
      list.description.split('\n\n')[0],
    security: list.security,
    querystring: { ...query, properties },
    produces: ['text/csv'],
    response: {
      '200': { description: 'the CSV file (UTF-8 with a byte order mark, CRLF line ends)', content: { 'text/csv': { schema: { type: 'string' } } } },
      ...FAILURES,
    },
  };
}
