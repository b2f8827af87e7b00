// Reading rows: one SELECT with a LEFT JOIN per relation, and the conversion of stored values to JSON.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { ColumnKind } from '../model/model.ts';
import type { Engine } from './context.ts';
import type { EntityModel } from '../model/model.ts';

const alias = (relation: string) => `r_${relation}`;

/** SQL reference of a field checked against the manifest: own field, or relation.field. */
export function columnRef(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, field: string): { ref: string; kind: ColumnKind } {
  const dot = field.indexOf('.');
  if (dot < 0) {
    if (!model.hasColumn(field)) throw new Error(`${model.entity} has no column ${field}`);
    return { ref: `t.${field}`, kind: model.kindOf(field) };
  }
  const relation = (model.manifest.relations ?? []).find((r) => r.name === field.slice(0, dot));
  const target = relation && engine.models.get(relation.entity);
  const column = field.slice(dot + 1);
  if (!relation || !target || !target.hasColumn(column)) throw new Error(`${model.entity} cannot reach ${field}`);
  return { ref: `${alias(relation.name)}.${column}`, kind: target.kindOf(column) };
}

export function fromDb(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 't';
    case 'integer':
    case 'number':
      return Number(value);
    case 'json':
      try {
        return JSON.parse(String(value));
      } catch {
        return null;
      }
    case 'timestamp':
      return value instanceof Date ? value.toISOString() : String(value);
    default:
      return value;
  }
}

export function toDb(engine: Pick<Engine, 'caps' | 'db' | 'models'>, kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'boolean') return engine.caps.toDbBoolean(Boolean(value));
  if (kind === 'json') return JSON.stringify(value);
  return value;
}

/** SELECT of readable own columns plus each relation's shown fields, from `table as t`. */
export function selectRows(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, db: Kysely<any> = engine.db): SelectQueryBuilder<any, any, any> {
  let query = joinRelations(engine, model, db.selectFrom(`${model.table} as t`));
  query = query.select(model.readable.map((f) => `t.${f}`));
  for (const relation of model.manifest.relations ?? []) {
    for (const field of relation.show ?? []) {
      query = query.select(sql.ref(`${alias(relation.name)}.${field}`).as(`${alias(relation.name)}__${field}`));
    }
  }
  return query;
}

export function joinRelations(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, query: SelectQueryBuilder<any, any, any>) {
  for (const relation of model.manifest.relations ?? []) {
    const target = engine.models.get(relation.entity)!;
    query = query.leftJoin(`${target.table} as ${alias(relation.name)}`, `${alias(relation.name)}.id`, `t.${relation.field}`);
  }
  return query;
}

/** A stored row as the API returns it: own readable fields, relations nested, compose objects built. */
export function present(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of model.readable) out[field] = fromDb(model.kindOf(field), row[field]);
  for (const relation of model.manifest.relations ?? []) {
    const target = engine.models.get(relation.entity)!;
    const shown: Record<string, unknown> = {};
    let found = false;
    for (const field of relation.show ?? []) {
      const value = row[`${alias(relation.name)}__${field}`];
      if (value !== null && value !== undefined) found = true;
      shown[field] = fromDb(target.kindOf(field), value);
    }
    out[relation.name] = found || !(relation.show ?? []).length ? shown : null;
  }
  for (const [name, parts] of Object.entries(model.manifest.compose ?? {})) {
    out[name] = Object.fromEntries(Object.entries(parts).map(([part, column]) => [part, out[column] ?? null]));
  }
  return out;
}

export async function readOne(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, id: number, db: Kysely<any> = engine.db) {
  const row = await selectRows(engine, model, db).where('t.id', '=', id).executeTakeFirst();
  return row ? present(engine, model, row) : undefined;
}
