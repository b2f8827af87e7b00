// One handler per action kind of docs/manifests.md, built once per declared action; each kind lives in
// kinds/<kind>.ts behind the name-keyed map of kinds/index.ts.
import type { ActionDecl } from '../../kernel/manifest/types.ts';
import type { Engine } from '../core/context.ts';
import type { EntityModel } from '../model/model.ts';
import { customHandler, tableKinds, type ActionHandler } from './kinds/index.ts';

export type { ActionHandler, CallContext } from './kinds/index.ts';

/** Builds the handler of one declared action. */
export function buildHandler(engine: Engine, model: EntityModel | undefined, name: string, action: ActionDecl): ActionHandler {
  if (action.check && !engine.actions.checks[action.check]) throw new Error(`action ${name}: no server/actions check named "${action.check}"`);
  if (action.before && !engine.actions.beforeDestroy[action.before]) throw new Error(`action ${name}: no server/actions before-destroy hook named "${action.before}"`);
  if (action.kind === 'custom') return customHandler(engine, action);
  if (!model) throw new Error(`action ${name} needs a table`);
  return tableKinds[action.kind](engine, model, action);
}
