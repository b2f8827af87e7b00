// The shape of one schemas/<entity>.json file. schemas/manifest.schema.json is the authority; these types
// mirror it for the code that reads manifests (server and client alike). See docs/manifests.md.

export type Role = 'admin' | 'developer' | 'tester' | 'customercare';
export const ROLES: readonly Role[] = ['admin', 'developer', 'tester', 'customercare'];

export type Tone = 'success' | 'warning' | 'info' | 'danger';

export interface Condition {
  field: string;
  equals?: unknown;
  notEquals?: unknown;
}

/** A JSON Schema of one record field, with the engine's own keywords. */
export interface FieldSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  readOnly?: boolean;
  writeOnly?: boolean;
  format?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: FieldSchema;
  properties?: Record<string, FieldSchema>;
  'x-json'?: boolean;
  'x-derived'?: { from: string; fn: 'md5' | 'sha256' };
  [keyword: string]: unknown;
}

export interface RecordSchema {
  type: 'object';
  required?: string[];
  additionalProperties?: false;
  properties: Record<string, FieldSchema>;
}

export interface FileRule {
  kind: 'png' | 'image' | 'css' | 'json';
  width?: number;
  height?: number;
  maxBytes?: number;
  path?: string;
  into?: string;
}

export interface Relation {
  name: string;
  field: string;
  entity: string;
  show?: string[];
  onDelete?: 'restrict' | 'cascade' | 'setNull';
}

export type FilterOp = 'eq' | 'contains' | 'prefix';

export interface FilterDecl {
  field: string;
  param?: string;
  op: FilterOp;
  label?: string;
  widget?: string;
  lookup?: string;
  /** The lookup rows' field the filter sends (default id): `name` for a column that holds names. */
  lookupValue?: string;
  /** The list needs this filter; on a relation's field, a value that names no record is a 404. */
  required?: boolean;
  /** A contains filter served by a trigram index (pg_trgm GIN on PostgreSQL, an FTS5 trigram table on SQLite). */
  index?: 'trigram';
}

export interface ColumnDecl {
  field: string;
  label?: string;
  cell?: string;
  truncate?: number;
  width?: number;
  prefixField?: string;
}

export interface HighlightRule {
  when: Condition;
  tone: Tone;
}

export interface ListDecl {
  pageSizes?: number[];
  defaultPageSize?: number;
  sortable?: string[];
  defaultOrder?: { field: string; direction?: 'asc' | 'desc' };
  filters?: FilterDecl[];
  columns?: ColumnDecl[];
  highlight?: HighlightRule[];
  details?: boolean;
  download?: { field: string; filename?: string; label?: string };
}

export interface FieldUi {
  widget?: string;
  lookup?: string;
  lookupPageSize?: number;
  readonlyFor?: Role[];
  help?: string;
  label?: string;
}

export interface FormDecl {
  fields?: string[];
  ui?: Record<string, FieldUi>;
  lockedOnEdit?: string[];
  warningOnEdit?: string;
  override?: string;
}

export type ActionKind =
  | 'list'
  | 'create'
  | 'update'
  | 'destroy'
  | 'destroyAll'
  | 'destroyByFilter'
  | 'toggle'
  | 'custom';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ActionDecl {
  kind: ActionKind;
  method: HttpMethod;
  path: string;
  roles: Role[];
  /** A device call: no token, roles [], rate-limited per caller address (docs/device-api.md). */
  public?: true;
  input?: 'query' | 'json' | 'multipart';
  key?: string[];
  writable?: string[];
  locked?: string[];
  field?: string;
  refuseWhen?: Condition & { message: string };
  handler?: string;
  /** create, update: a server/actions record check (`experiment.rules`); its problems are a 400. */
  check?: string;
  /** destroy: a server/actions hook run on the stored record before the delete (`gitlab.cancelPipeline`). */
  before?: string;
  inputSchema?: Record<string, unknown>;
  forRole?: Partial<Record<Role, Record<string, string>>>;
  ui?: { place?: 'toolbar' | 'row' | 'none'; label?: string; confirm?: string; override?: string; requireFilter?: string };
}

export interface MenuDecl {
  label: string;
  group?: string;
  order?: number;
  roles?: Role[];
}

export interface ScreenDecl {
  route: string;
  roles: Role[];
  menu?: MenuDecl;
  override?: string;
  toolbar?: string[];
  rowActions?: string[];
  routeParams?: Record<string, string>;
  heading?: string;
  /** A live item type whose arrival reloads the open list (throttled to once per second). */
  liveRefresh?: string;
  rowLinks?: { label: string; to: string }[];
}

/** A live item type the server emits on the socket: the roles whose sockets receive it (`live.<type>`). */
export interface LiveDecl {
  roles: Role[];
  description?: string;
}

export interface Manifest {
  entity: string;
  title: string;
  description?: string;
  table?: string;
  provides?: 'accounts' | 'audit-log';
  recordLabel?: string;
  /** One record in words ('goal'), for titles and messages; default: the title made singular. */
  noun?: string;
  record?: RecordSchema;
  storage?: {
    unique?: string[][];
    indexes?: string[][];
    secrets?: string[];
    files?: Record<string, FileRule>;
  };
  relations?: Relation[];
  compose?: Record<string, Record<string, string>>;
  list?: ListDecl;
  form?: FormDecl;
  actions: Record<string, ActionDecl>;
  live?: Record<string, LiveDecl>;
  screen?: ScreenDecl;
}
