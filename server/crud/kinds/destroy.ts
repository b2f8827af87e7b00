// kind "destroy": deletes the record named by the action's key, with its stored files and (for accounts) sessions.
import type { ActionDecl } from '../../../kernel/manifest/types.ts';
import type { Engine } from '../context.ts';
import { check } from '../input.ts';
import type { EntityModel } from '../model.ts';
import { withFiles } from '../files.ts';
import { coerceAll, endSessionsIfAccount, findByKey, keyOf, keyValidator, refuse, revokeIfAccount, write, type ActionHandler } from './shared.ts';

export function destroyHandler(engine: Engine, model: EntityModel, action: ActionDecl): ActionHandler {
  const key = keyOf(action);
  const validate = keyValidator(model, key);
  return async (call) => {
    coerceAll(call.input, model.props, call.source);
    check(validate, call.input);
    if (action.before) await engine.actions.beforeDestroy[action.before](await findByKey(engine, model, key, call.input, engine.db), engine);
    const result = await withFiles(engine, (staging) => write(engine, call, async (trx, record) => {
      const current = (record.before = await findByKey(engine, model, key, call.input, trx));
      refuse(action, current);
      const id = Number(current.id);
      await staging.remove(model, current);
      await trx.deleteFrom(model.table).where('id', '=', id).execute();
      await revokeIfAccount(engine, model, trx, id);
      return { id };
    }));
    endSessionsIfAccount(engine, model, result.id);
    return result;
  };
}
