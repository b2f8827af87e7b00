// kind "list": one page of rows (filters, sort, paging) and the count of all matching rows.
// The list's query is built here and only here.
import type { Engine } from '../../core/context.ts';
import type { EntityModel } from '../../model/model.ts';
import { present } from '../../core/rows.ts';
import { countList, relationsOf } from '../list-query.ts';
import { ftsMatching, ListPager } from '../list-page.ts';
import { applyFilters, filterParams, listOrder, requireScopes } from './filters.ts';
import type { ActionHandler } from './shared.ts';
import { defaultPageSize } from '../../../kernel/rules/page-size.ts';

export function listHandler(engine: Pick<Engine, 'caps' | 'changes' | 'db' | 'models'>, model: EntityModel): ActionHandler {
  const list = model.manifest.list ?? {};
  const filters = filterParams(engine, model);
  // The parameters were checked by the route's schema (./input-rules.ts): empty filters dropped, values converted.
  return async (call) => {
    const input = call.input;
    await requireScopes(engine, model, filters, input);
    const page = (input.page as number | undefined) ?? 1;
    const pageSize = (input.pageSize as number | undefined) ?? defaultPageSize(list);
    const active = filters.filter((f) => input[f.param] !== undefined && input[f.param] !== null && input[f.param] !== '');
    const key = JSON.stringify(active.map((f) => [f.param, input[f.param]]));
    const offset = (page - 1) * pageSize;
    const { rows, next } = await new ListPager(engine, model, {
      active,
      input,
      order: listOrder(list, input),
      pageSize,
      offset,
      after: input.after as string | undefined,
      filterKey: key,
    }).page();
    const counted = await countList(engine, model, {
      where: (q) => applyFilters(engine, active, input, q).query,
      relations: relationsOf(active.map((f) => f.ref)),
      key,
      offset,
      matching: () => ftsMatching(engine, model, active, input),
      pageSize,
      rowsOnPage: rows.length,
    });
    return { rows: rows.map((row: Record<string, unknown>) => present(engine, model, row)), ...counted, ...(next ? { next } : {}) };
  };
}
