// kind "update": edits the writable fields of the record named by the action's key (versions, locked fields, files).
import type { ActionDecl } from '../../../kernel/manifest/types.ts';
import { fieldErrors } from '../../errors.ts';
import type { Engine } from '../../core/context.ts';
import { fieldRefusal } from '../../../kernel/manifest/error-text.ts';
import type { EntityModel } from '../../model/model.ts';
import { withFiles } from '../files.ts';
import { readOne } from '../../core/rows.ts';
import { checkVersion, nextVersion, takeVersion } from '../versions.ts';
import {
  applyForRole, checkRelations, checkUnique, endSessionsIfAccount, findByKey, keyOf, refuse,
  revokeIfAccount, runCheck, storedValues, write, type ActionHandler,
} from './shared.ts';

export function updateHandler(engine: Pick<Engine, 'accounts' | 'actions' | 'audit' | 'caps' | 'changes' | 'dataDir' | 'db' | 'live' | 'models'>, model: EntityModel, action: ActionDecl): ActionHandler {
  const key = keyOf(action);
  const writable = new Set((action.writable ?? model.settable).filter((f) => !key.includes(f)));
  const locked = new Set(action.locked ?? []);
  // The input was checked by the route's schema (./input-rules.ts); the form's files were taken by their rules.
  return async (call) => {
    const input = call.input;
    const version = takeVersion(model, input);
    const files = call.files ?? new Map<string, Buffer>();
    for (const f of files.keys()) if (!writable.has(f)) throw fieldErrors([fieldRefusal(f, 'notByThisCall', {}, model.props)]);
    const secretChanged = [...model.secrets].some((f) => f in input);
    const saved = await withFiles(engine, (staging) => write(engine, call, async (trx, record) => {
      const current = (record.before = await findByKey(engine, model, key, input, trx));
      refuse(action, current);
      await checkVersion(engine, model, current, version, trx);
      for (const f of locked) {
        if (f in input && !key.includes(f) && JSON.stringify(input[f]) !== JSON.stringify(current[f])) {
          throw fieldErrors([fieldRefusal(f, 'locked', {}, model.props)]);
        }
      }
      const values: Record<string, unknown> = {};
      for (const f of writable) if (f in input) values[f] = input[f];
      await runCheck(engine, action, { ...current, ...values }, trx, 'update');
      await applyForRole(engine, action, call, values, trx);
      await checkRelations(engine, model, values, trx);
      Object.assign(values, await staging.place(model, files, { ...current, ...values }));
      const stored = await storedValues(engine, model, values);
      if (model.hasColumn('updatedAt')) stored.updatedAt = nextVersion(current);
      const id = Number(current.id);
      await checkUnique(engine, model, stored, trx, id);
      if (Object.keys(stored).length) await trx.updateTable(model.table).set(stored).where('id', '=', id).execute();
      record.secrets = [...model.secrets].filter((f) => f in values);
      if (record.secrets.length) await revokeIfAccount(engine, model, trx, id);
      await staging.apply(trx);
      return (record.after = await readOne(engine, model, id, trx));
    }));
    if (secretChanged) endSessionsIfAccount(engine, model, Number(saved?.id));
    return saved;
  };
}
