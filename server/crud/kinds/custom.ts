// kind "custom": a handler of server/actions named by the action's `handler`, with its input schema.
import type { Kysely } from 'kysely';
import type { ActionDecl } from '../../../kernel/manifest/types.ts';
import type { Engine } from '../../core/context.ts';
import { write, type ActionHandler } from './shared.ts';

export function customHandler(engine: Pick<Engine, 'actions' | 'audit' | 'caps' | 'changes' | 'db' | 'models'>, action: ActionDecl): ActionHandler {
  const handler = engine.actions.registered.handlers[action.handler!];
  if (!handler) throw new Error(`No server/actions handler named "${action.handler}"`);
  // The input was checked by the route's schema (the action's inputSchema, ./input-rules.ts).
  return async (call) => {
    const ctx = { engine: engine.actions.services, db: engine.db, input: call.input, actor: call.actor, client: call.client, path: call.path };
    const prepared = handler.prepare ? await handler.prepare(ctx) : undefined;
    const run = (db: Kysely<any>) => handler.run({ ...ctx, db, prepared });
    if (!handler.write) return run(engine.db);
    try {
      const transact = (db?: Kysely<any>) => write(engine, call, run, handler.touches, db);
      return await (handler.writeOn ? handler.writeOn({ ...ctx, prepared }, transact) : transact());
    } catch (error) {
      if (handler.undo) await handler.undo({ ...ctx, prepared }).catch((e: Error) => console.error(`undo of ${action.path} failed: ${e.message}`));
      throw error;
    }
  };
}
