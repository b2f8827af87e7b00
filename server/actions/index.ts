// Every named handler, check, hook and value source of this application, by name, as the folders register them
// from their own plugins (server/actions/plugin.ts, ./device/plugin.ts, ./gitlab.ts): for the checks that keep
// server/actions/names.ts equal to them and for the tests that read them. The server itself reads the registry
// (`app.serverActions`, server/crud/registry.ts), not this file.
import type { BeforeDestroy, CustomHandler, RecordCheck, ServerActions, ValueSource } from './types.ts';
import { ownActions } from './plugin.ts';
import { deviceActions } from './device/plugin.ts';
import { gitlabActions } from './gitlab.ts';

export type { ActionContext, BeforeDestroy, CheckContext, CustomHandler, RecordCheck, ServerActions, ValueSource } from './types.ts';

const all = [ownActions, deviceActions, gitlabActions];

export const customHandlers: Record<string, CustomHandler> = Object.assign({}, ...all.map((a) => a.handlers));
export const recordChecks: Record<string, RecordCheck> = Object.assign({}, ...all.map((a) => a.checks));
export const beforeDestroy: Record<string, BeforeDestroy> = Object.assign({}, ...all.map((a) => a.beforeDestroy));
export const valueSources: Record<string, ValueSource> = Object.assign({}, ...all.map((a) => a.valueSources));

/** This application's server actions, all folders together. */
export const serverActions: ServerActions = { handlers: customHandlers, checks: recordChecks, beforeDestroy, valueSources };
