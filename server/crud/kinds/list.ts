// kind "list": one page of rows (filters, sort, paging) and the count of all matching rows.
// The list's query is built here and only here.
import type { FieldSchema } from '../../../kernel/manifest/types.ts';
import type { Engine } from '../context.ts';
import { ajv, check } from '../input.ts';
import type { EntityModel } from '../model.ts';
import { columnRef, present, selectRows } from '../rows.ts';
import { countList, readRows, relationsOf } from '../list-query.ts';
import { applyFilters, coerceFilters, filterParams, listOrder, listParamsSchema, requireScopes } from './filters.ts';
import { coerceAll, type ActionHandler } from './shared.ts';

export function listHandler(engine: Engine, model: EntityModel): ActionHandler {
  const list = model.manifest.list ?? {};
  const filters = filterParams(engine, model);
  const validate = ajv.compile(
    listParamsSchema(list, filters, { page: { type: 'integer', minimum: 1, maximum: 1_000_000 }, pageSize: { type: 'integer', minimum: 1, maximum: 1000 } }),
  );
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
    const order = listOrder(list, input);
    const direction = order?.direction ?? 'asc';
    if (order) rowsQuery = rowsQuery.orderBy(columnRef(engine, model, order.field).ref, direction);
    // id breaks ties in the same direction, so one index (column, id) serves the whole order.
    if (order?.field !== 'id') rowsQuery = rowsQuery.orderBy('t.id', direction);
    rowsQuery = rowsQuery.limit(pageSize).offset((page - 1) * pageSize);
    const rows = await readRows<Record<string, unknown>>(engine, rowsQuery);
    const active = filters.filter((f) => input[f.param] !== undefined && input[f.param] !== null && input[f.param] !== '');
    const counted = await countList(engine, model, {
      where: (q) => applyFilters(engine, active, input, q).query,
      relations: relationsOf(active.map((f) => f.ref)),
      key: JSON.stringify(active.map((f) => [f.param, input[f.param]])),
      offset: (page - 1) * pageSize,
      pageSize,
      rowsOnPage: rows.length,
    });
    return { rows: rows.map((row: Record<string, unknown>) => present(engine, model, row)), ...counted };
  };
}
