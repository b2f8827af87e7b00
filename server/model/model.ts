// What the engine derives once from a manifest: columns, kinds, which fields a caller may send or read.
import type { FieldSchema, Manifest } from '../../kernel/manifest/types.ts';

/** How a field is stored: the SQL type each dialect gives it is in its capabilities (server/db/capabilities.ts). */
export type ColumnKind = 'integer' | 'number' | 'string' | 'boolean' | 'json' | 'timestamp';

export interface EntityModel {
  manifest: Manifest;
  entity: string;
  table: string;
  props: Record<string, FieldSchema>;
  /** Stored columns (secrets as <field>Hash), with their kind and whether they are the id. */
  columns: { name: string; kind: ColumnKind }[];
  /** Fields returned to callers (writeOnly and secrets excluded). */
  readable: string[];
  /** Fields a caller may set on create (not readOnly, not x-derived). */
  settable: string[];
  secrets: Set<string>;
  hasColumn(name: string): boolean;
  kindOf(field: string): ColumnKind;
}

export function fieldKind(schema: FieldSchema): ColumnKind {
  if (schema['x-json']) return 'json';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'number';
  if (types.includes('boolean')) return 'boolean';
  if (types.includes('object') || types.includes('array')) return 'json';
  if (schema.format === 'date-time') return 'timestamp';
  return 'string';
}

export const secretColumn = (field: string) => `${field}Hash`;

/** An e-mail field: unique constraints over it ignore case (`A@x.io` and `a@x.io` are one address). */
export const isEmailField = (model: Pick<EntityModel, 'props'>, field: string) => model.props[field]?.format === 'email';
/** Ids are PostgreSQL `serial` (int4): a larger id names no row and would make the query fail. */
export const MAX_ID = 2_147_483_647;

/**
 * The record's fields with the range their columns hold: ids and relation ids up to MAX_ID, other integers
 * within what a JavaScript number keeps exactly. A declared bound stays; an id beyond it is a 400 naming it.
 */
function bounded(manifest: Manifest): Record<string, FieldSchema> {
  const ids = new Set(['id', ...(manifest.relations ?? []).map((r) => r.field)]);
  const props: Record<string, FieldSchema> = {};
  for (const [name, schema] of Object.entries(manifest.record!.properties)) {
    if (fieldKind(schema) !== 'integer') {
      props[name] = schema;
      continue;
    }
    const max = ids.has(name) ? MAX_ID : Number.MAX_SAFE_INTEGER;
    props[name] = { ...schema, minimum: schema.minimum ?? -Number.MAX_SAFE_INTEGER, maximum: schema.maximum ?? max };
  }
  return props;
}

export function buildModel(manifest: Manifest): EntityModel {
  const props = bounded(manifest);
  const secrets = new Set(manifest.storage?.secrets ?? []);
  const columns: EntityModel['columns'] = [];
  for (const [name, schema] of Object.entries(props)) {
    if (secrets.has(name)) columns.push({ name: secretColumn(name), kind: 'string' });
    else if (!schema.writeOnly) columns.push({ name, kind: name === 'id' ? 'integer' : fieldKind(schema) });
  }
  const names = new Set(columns.map((c) => c.name));
  return {
    manifest,
    entity: manifest.entity,
    table: manifest.table!,
    props,
    columns,
    readable: Object.keys(props).filter((f) => !props[f].writeOnly && !secrets.has(f)),
    settable: Object.keys(props).filter((f) => !props[f].readOnly && !props[f]['x-derived']),
    secrets,
    hasColumn: (name) => names.has(name),
    kindOf: (field) => columns.find((c) => c.name === field)?.kind ?? 'string',
  };
}
