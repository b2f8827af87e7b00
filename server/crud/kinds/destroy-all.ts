// kind "destroyAll": deletes every row no other record still uses.
import type { Engine } from '../../core/context.ts';
import type { EntityModel } from '../../model/model.ts';
import { deleteUnreferenced } from '../references.ts';
import { write, type ActionHandler } from './shared.ts';

export function destroyAllHandler(engine: Pick<Engine, 'audit' | 'caps' | 'changes' | 'db' | 'models'>, model: EntityModel): ActionHandler {
  return async (call) => {
    // Rows other records still use (onDelete: restrict) stay, and the answer names them.
    return write(engine, call, (trx, record) => deleteUnreferenced(engine, model, trx, trx.selectFrom(`${model.table} as t`).select('t.id'), record));
  };
}
