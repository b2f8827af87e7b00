// kind "toggle": flips the action's boolean field on the record named by its key.
import type { ActionDecl } from '../../../kernel/manifest/types.ts';
import type { Engine } from '../../core/context.ts';
import type { EntityModel } from '../../model/model.ts';
import { readOne } from '../../core/rows.ts';
import { checkVersion, nextVersion, takeVersion } from '../versions.ts';
import { findByKey, keyOf, refuse, write, type ActionHandler } from './shared.ts';

export function toggleHandler(engine: Pick<Engine, 'audit' | 'caps' | 'changes' | 'db' | 'models'>, model: EntityModel, action: ActionDecl): ActionHandler {
  const key = keyOf(action);
  const field = action.field!;
  return async (call) => {
    const version = takeVersion(model, call.input);
    return write(engine, call, async (trx, record) => {
      const current = (record.before = await findByKey(engine, model, key, call.input, trx));
      refuse(action, current);
      await checkVersion(engine, model, current, version, trx);
      const id = Number(current.id);
      const stored: Record<string, unknown> = { [field]: engine.caps.toDbBoolean(!current[field]) };
      if (model.hasColumn('updatedAt')) stored.updatedAt = nextVersion(current);
      await trx.updateTable(model.table).set(stored).where('id', '=', id).execute();
      return (record.after = await readOne(engine, model, id, trx));
    });
  };
}
