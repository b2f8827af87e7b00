// kind "list": one page of rows (filters, sort, paging) and the count of all matching rows.
// The list's query is built here and only here.
import { sql } from 'kysely';
import type { FieldSchema } from '../../../kernel/manifest/types.ts';
import type { Engine } from '../context.ts';
import { ajv, check } from '../input.ts';
import type { EntityModel } from '../model.ts';
import { columnRef, joinRelations, present, selectRows } from '../rows.ts';
import { applyFilters, coerceFilters, filterParams, filterSchemaProps, requireScopes } from './filters.ts';
import { coerceAll, type ActionHandler } from './shared.ts';

export function listHandler(engine: Engine, model: EntityModel): ActionHandler {
  const list = model.manifest.list ?? {};
  const filters = filterParams(engine, model);
  const sortable = list.sortable ?? [];
  const validate = ajv.compile({
    type: 'object',
    additionalProperties: false,
    properties: {
      page: { type: 'integer', minimum: 1, maximum: 1_000_000 },
      pageSize: { type: 'integer', minimum: 1, maximum: 1000 },
      sortBy: { enum: ['none', '', ...sortable] },
      sortOrder: { enum: ['asc', 'desc', ''] },
      ...filterSchemaProps(filters),
    },
    required: filters.filter((f) => f.decl.required).map((f) => f.param),
  });
  const pagingSchema: Record<string, FieldSchema> = { page: { type: 'integer' }, pageSize: { type: 'integer' } };
  return async (call) => {
    const input = call.input;
    coerceAll(input, pagingSchema, call.source);
    coerceFilters(filters, input, call.source);
    check(validate, input);
    await requireScopes(engine, model, filters, input);
    const page = (input.page as number | undefined) ?? 1;
    const pageSize = (input.pageSize as number | undefined) ?? list.defaultPageSize ?? 20;
    let rowsQuery = applyFilters(engine, filters, input, selectRows(engine, model)).query;
    const countQuery = applyFilters(
      engine,
      filters,
      input,
      joinRelations(engine, model, engine.db.selectFrom(`${model.table} as t`)).select(sql<number>`count(*)`.as('count')),
    ).query;
    const sortBy = input.sortBy as string | undefined;
    if (sortBy && sortBy !== 'none') {
      rowsQuery = rowsQuery.orderBy(columnRef(engine, model, sortBy).ref, input.sortOrder === 'desc' ? 'desc' : 'asc');
    } else if (list.defaultOrder) {
      rowsQuery = rowsQuery.orderBy(columnRef(engine, model, list.defaultOrder.field).ref, list.defaultOrder.direction ?? 'asc');
    }
    rowsQuery = rowsQuery.orderBy('t.id', 'asc').limit(pageSize).offset((page - 1) * pageSize);
    const [rows, counted] = await Promise.all([rowsQuery.execute(), countQuery.executeTakeFirst()]);
    return { rows: rows.map((row: Record<string, unknown>) => present(engine, model, row)), count: Number(counted?.count ?? 0) };
  };
}
