// The types of the server's name-keyed registries (server/crud/registry.ts); they are declared beside the
// Engine in server/core/context.ts, and re-exported here for the handlers.
export type { ActionContext, BeforeDestroy, CheckContext, CustomHandler, HandlerServices, RecordCheck, ServerActions, ValueSource } from '../core/context.ts';
