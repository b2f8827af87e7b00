// What the application hands the engine at start-up (as RJSF takes `widgets`): its bespoke screens, forms,
// toolbar and row pieces, cells, filter kinds, tones and form widgets. The registries read these containers,
// so the engine never imports an application's overrides/ folder; src/main.tsx passes them to <Boot>.
import type { Widget } from '@rjsf/utils';
import type { NamesPart } from '../../kernel/manifest/names';
import type { OverrideMap } from './override-types';

/** The overrides of one application; every part is optional. */
export interface EngineOverrides extends Partial<OverrideMap> {
  /** RJSF widgets by the name of `form.ui.<field>.widget`. */
  widgets?: Record<string, Widget>;
}

/** The installed overrides, one container per registry (filled in place, so registries made earlier see them). */
export const installed: Required<EngineOverrides> = {
  screens: {},
  forms: {},
  toolbar: {},
  rowActions: {},
  cells: {},
  filters: {},
  tones: {},
  widgets: {},
};

/**
 * Hands the application's overrides to the engine; called once before the panel renders (and by tests).
 * @example installOverrides({ ...overrides, widgets: widgetOverrides })
 */
export function installOverrides(overrides: EngineOverrides): void {
  for (const key of Object.keys(installed) as (keyof EngineOverrides)[]) {
    const target = installed[key] as Record<string, unknown>;
    for (const name of Object.keys(target)) delete target[name];
    Object.assign(target, overrides[key] ?? {});
  }
}

/**
 * The overrides as the entry point hands them over: their names at once (checked at start-up against the
 * manifests), their code on demand, so the login screen does not download the screens behind it.
 */
export interface DeferredOverrides {
  /** The names-only list of the overrides (overrides/names.ts). */
  names: NamesPart;
  load: () => Promise<EngineOverrides>;
}

let deferred: DeferredOverrides | null = null;
let ready: Promise<void> | null = null;

/** Remembers where the overrides come from; nothing loads until overridesReady() is first awaited. */
export function deferOverrides(overrides: DeferredOverrides): void {
  deferred = overrides;
  ready = null;
}

/**
 * Loads and installs the deferred overrides once (a failed load is tried again on the next call); the screens
 * behind the login await it before they draw.
 */
export function overridesReady(): Promise<void> {
  if (!deferred) return Promise.resolve();
  ready ??= deferred.load().then(installOverrides, (e: unknown) => {
    ready = null;
    throw e;
  });
  return ready;
}
