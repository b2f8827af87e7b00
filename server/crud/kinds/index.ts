// The action kinds of docs/manifests.md by name, one file each; `custom` is built apart (it needs no table).
import type { ActionDecl } from '../../../kernel/manifest/types.ts';
import type { KindBuilder } from './shared.ts';
import { listHandler } from './list.ts';
import { createHandler } from './create.ts';
import { updateHandler } from './update.ts';
import { destroyHandler } from './destroy.ts';
import { toggleHandler } from './toggle.ts';
import { destroyAllHandler } from './destroy-all.ts';
import { destroyByFilterHandler } from './destroy-by-filter.ts';

export { customHandler } from './custom.ts';
export type { ActionHandler, CallContext, KindBuilder } from './shared.ts';

export const tableKinds: Record<Exclude<ActionDecl['kind'], 'custom'>, KindBuilder> = {
  list: listHandler,
  create: createHandler,
  update: updateHandler,
  destroy: destroyHandler,
  toggle: toggleHandler,
  destroyAll: destroyAllHandler,
  destroyByFilter: destroyByFilterHandler,
};
