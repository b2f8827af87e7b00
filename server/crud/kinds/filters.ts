// The list's filter parameters (of the manifest's `list.filters`), shared by the list and destroyByFilter kinds.
import { sql, type SqlBool } from 'kysely';
import type { FieldSchema, FilterDecl, ListDecl } from '../../../kernel/manifest/types.ts';
import { notFound } from '../../errors.ts';
import type { Engine } from '../../core/context.ts';
import { coerce } from '../../core/input.ts';
import type { InputSource } from '../../contract/route-schema.ts';
import { fieldKind, type EntityModel } from '../../model/model.ts';
import { columnRef, toDb } from '../../core/rows.ts';
import { escapeLike, trigramCondition } from '../../db/text-search.ts';

export interface FilterParam {
  param: string;
  decl: FilterDecl;
  ref: string;
  schema: FieldSchema;
  /** A contains filter's condition through its trigram index, when it has one here (server/db/text-search.ts). */
  indexed?: (value: string) => unknown;
}

export function filterParams(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel): FilterParam[] {
  return (model.manifest.list?.filters ?? []).map((decl) => {
    const { ref, kind } = columnRef(engine, model, decl.field);
    const own = decl.field.includes('.') ? undefined : model.props[decl.field];
    const base: FieldSchema = own ?? { type: kind === 'integer' ? 'integer' : kind === 'boolean' ? 'boolean' : 'string' };
    // contains/prefix compare text; eq compares a value of the field's own type.
    const schema: FieldSchema =
      decl.op === 'eq'
        ? JSON.parse(JSON.stringify({ type: base.type, enum: base.enum, format: base.format, maxLength: 200, minimum: base.minimum, maximum: base.maximum }))
        : { type: 'string', maxLength: 200 };
    const indexed = decl.op === 'contains' ? (value: string) => trigramCondition(engine.caps, model, decl.field, value) : undefined;
    return { param: decl.param ?? decl.field, decl, ref, schema, indexed };
  });
}

/** A contains or prefix filter's test of `ref` without an index: case-insensitive LIKE, the value taken literally. */
export function likeTest(caps: Pick<Engine['caps'], 'likeInsensitive'>, ref: string, op: FilterDecl['op'], value: string) {
  const escaped = escapeLike(value);
  const pattern = op === 'contains' ? `%${escaped}%` : `${escaped}%`;
  return sql<SqlBool>`${sql.ref(ref)} ${sql.raw(caps.likeInsensitive)} ${pattern} escape '\\'`;
}

/** Reads the filter parameters (empty ones ignored) into WHERE conditions on the query. */
export function applyFilters(engine: Pick<Engine, 'caps' | 'db' | 'models'>, filters: FilterParam[], input: Record<string, unknown>, query: any): { query: any; used: number } {
  let used = 0;
  for (const f of filters) {
    const value = input[f.param];
    if (value === undefined || value === null || value === '') continue;
    used++;
    if (f.decl.op === 'eq') {
      query = query.where(f.ref, '=', toDb(engine, fieldKind(f.schema), value));
      continue;
    }
    const indexed = f.indexed?.(String(value));
    if (indexed) {
      query = query.where(indexed);
      continue;
    }
    query = query.where(likeTest(engine.caps, f.ref, f.decl.op, String(value)));
  }
  return { query, used };
}

export function filterSchemaProps(filters: FilterParam[]) {
  const props: Record<string, FieldSchema> = {};
  // An empty value means "no filter", so '' is accepted besides a value of the field's type.
  for (const f of filters) props[f.param] = f.decl.required ? { title: f.decl.label ?? f.param, ...f.schema } : { title: f.decl.label ?? f.param, anyOf: [f.schema, { const: '' }] };
  return props;
}

export function coerceFilters(filters: FilterParam[], input: Record<string, unknown>, source: InputSource) {
  for (const f of filters) {
    if (f.param in input && input[f.param] !== '') input[f.param] = coerce(input[f.param], f.schema, f.param, source !== 'json');
  }
}

/** A required filter on a relation's field names the record the list belongs to: one that does not exist is a 404. */
export async function requireScopes(engine: Pick<Engine, 'db' | 'models'>, model: EntityModel, filters: FilterParam[], input: Record<string, unknown>) {
  for (const f of filters) {
    const relation = f.decl.required && (model.manifest.relations ?? []).find((r) => r.field === f.decl.field);
    if (!relation) continue;
    const target = engine.models.get(relation.entity)!;
    const id = input[f.param] as number;
    // An id past the integer column's range names no row (and PostgreSQL would refuse the comparison).
    const found = id <= 2_147_483_647 && (await engine.db.selectFrom(target.table).select('id').where('id', '=', id).executeTakeFirst());
    if (!found) throw notFound(`No ${relation.entity} with id ${String(input[f.param])}`);
  }
}

/** The order a list call asks for (`sortBy`, `sortOrder`), else the manifest's `defaultOrder`. */
export function listOrder(list: ListDecl, input: Record<string, unknown>): ListDecl['defaultOrder'] {
  const sortBy = input.sortBy as string | undefined;
  return sortBy && sortBy !== 'none' ? { field: sortBy, direction: input.sortOrder === 'desc' ? 'desc' : 'asc' } : list.defaultOrder;
}

