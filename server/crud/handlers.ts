// One handler per action kind of docs/manifests.md, built once per declared action; each kind lives in
// kinds/<kind>.ts behind the name-keyed map of kinds/index.ts.
import type { ActionDecl } from '../../kernel/manifest/types.ts';
import type { EntityModel } from '../model/model.ts';
import { customHandler, tableKinds, type ActionHandler } from './kinds/index.ts';
import type { KindContext } from './kinds/shared.ts';

export type { ActionHandler, CallContext } from './kinds/index.ts';

/** Builds the handler of one declared action (its check, hook and handler names were checked: server/crud/registry.ts). */
export function buildHandler(engine: KindContext, model: EntityModel | undefined, name: string, action: ActionDecl): ActionHandler {
  if (action.kind === 'custom') return customHandler(engine, action);
  if (!model) throw new Error(`action ${name} needs a table`);
  return tableKinds[action.kind](engine, model, action);
}
