// kind "destroyByFilter": deletes the unreferenced rows matching at least one filled list filter.
import type { Kysely } from 'kysely';
import { badRequest } from '../../errors.ts';
import type { Engine } from '../../core/context.ts';
import type { EntityModel } from '../../model/model.ts';
import { joinRelations } from '../../core/rows.ts';
import { deleteUnreferenced } from '../references.ts';
import { applyFilters, filterParams } from './filters.ts';
import { write, type ActionHandler } from './shared.ts';

export function destroyByFilterHandler(engine: Pick<Engine, 'audit' | 'caps' | 'changes' | 'db' | 'models'>, model: EntityModel): ActionHandler {
  const filters = filterParams(engine, model);
  return async (call) => {
    const matching = (db: Kysely<any>) =>
      applyFilters(engine, filters, call.input, joinRelations(engine, model, db.selectFrom(`${model.table} as t`)).select('t.id'));
    if (matching(engine.db).used === 0) throw badRequest('Fill at least one filter');
    // The same connection as the transaction: SQLite has only one, so a second would wait forever.
    return write(engine, call, (trx, record) => deleteUnreferenced(engine, model, trx, matching(trx).query, record));
  };
}
