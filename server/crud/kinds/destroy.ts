// kind "destroy": deletes the record named by the action's key, with its stored files and (for accounts) sessions;
// like an edit it may carry the version it was made from (server/crud/versions.ts).
import type { ActionDecl } from '../../../kernel/manifest/types.ts';
import type { Engine } from '../../core/context.ts';
import type { EntityModel } from '../../model/model.ts';
import { withFiles } from '../files.ts';
import { checkVersion, takeVersion } from '../versions.ts';
import { endSessionsIfAccount, findByKey, keyOf, refuse, revokeIfAccount, write, type ActionHandler } from './shared.ts';

export function destroyHandler(engine: Pick<Engine, 'accounts' | 'actions' | 'audit' | 'caps' | 'changes' | 'dataDir' | 'db' | 'live' | 'models'>, model: EntityModel, action: ActionDecl): ActionHandler {
  const key = keyOf(action);
  return async (call) => {
    const version = takeVersion(model, call.input);
    if (action.before) {
      const seen = await findByKey(engine, model, key, call.input, engine.db);
      // A stale delete is refused before the hook acts outside the database (cancelling a pipeline).
      await checkVersion(engine, model, seen, version, engine.db);
      await engine.actions.registered.beforeDestroy[action.before](seen, engine.actions.services);
    }
    const result = await withFiles(engine, (staging) => write(engine, call, async (trx, record) => {
      const current = (record.before = await findByKey(engine, model, key, call.input, trx));
      refuse(action, current);
      await checkVersion(engine, model, current, version, trx);
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
