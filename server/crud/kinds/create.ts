// kind "create": adds one record from the settable fields (defaults, files, forRole values, the manifest's check).
import type { ActionDecl } from '../../../kernel/manifest/types.ts';
import { fieldError } from '../../errors.ts';
import type { Engine } from '../../core/context.ts';
import { titleOf } from '../../core/input.ts';
import type { EntityModel } from '../../model/model.ts';
import { storedFileFields } from '../../core/file-paths.ts';
import { withFiles } from '../files.ts';
import { readOne } from '../../core/rows.ts';
import { applyForRole, checkRelations, checkUnique, runCheck, storedValues, write, type ActionHandler } from './shared.ts';

export function createHandler(engine: Pick<Engine, 'actions' | 'audit' | 'caps' | 'changes' | 'dataDir' | 'db' | 'models'>, model: EntityModel, action: ActionDecl): ActionHandler {
  const settable = new Set(model.settable);
  const fileFields = storedFileFields(model);
  const required = (model.manifest.record!.required ?? []).filter((f) => settable.has(f) && model.props[f].default === undefined);
  // The input was checked by the route's schema (./input-rules.ts); the form's files were taken by their rules.
  return async (call) => {
    const input = call.input;
    const files = call.files ?? new Map<string, Buffer>();
    for (const f of required) if (fileFields.has(f) && !files.has(f)) throw fieldError(f, `${titleOf(model.props, f)} is required`);
    const values: Record<string, unknown> = {};
    for (const f of settable) {
      if (f in input) values[f] = input[f];
      else if (model.props[f].default !== undefined) values[f] = model.props[f].default;
    }
    const now = new Date().toISOString();
    return withFiles(engine, (staging) => write(engine, call, async (trx, record) => {
      await runCheck(engine, action, values, trx, 'create');
      await applyForRole(engine, action, call, values, trx);
      await checkRelations(engine, model, values, trx);
      Object.assign(values, await staging.place(model, files, values));
      record.secrets = [...model.secrets].filter((f) => f in values);
      const stored = await storedValues(engine, model, values);
      if (model.hasColumn('createdAt')) stored.createdAt = now;
      if (model.hasColumn('updatedAt')) stored.updatedAt = now;
      await checkUnique(engine, model, stored, trx);
      const inserted = await trx.insertInto(model.table).values(stored).returning('id').executeTakeFirstOrThrow();
      await staging.apply(trx);
      return (record.after = await readOne(engine, model, Number(inserted.id), trx));
    }));
  };
}
