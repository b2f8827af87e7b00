// The `handlers` plugin: the registry of the named custom handlers, record checks, before-destroy hooks and value
// sources the manifests refer to (`"handler": "versions.list"`). The folders that bring them register their own from
// their own plugin (server/actions/plugin.ts, server/actions/device/plugin.ts, server/actions/gitlab.ts), as
// overrides/ does for the client; `crud` depends on those plugins and reads the registry once all have registered.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Manifest } from '../../kernel/manifest/types.ts';
import type { ActionRegistry, HandlerServices, ServerActions } from '../core/context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    serverActions: ActionRegistry;
  }
}

export interface RegistryOptions {
  /** DATA_DIR: uploaded files and the build tree live under it. */
  dataDir: string;
  /** Handlers, checks, hooks and value sources registered besides those of the application's folders (tests). */
  extra?: Partial<ServerActions>;
}

const KINDS: Record<keyof ServerActions, string> = {
  handlers: 'handler',
  checks: 'check',
  beforeDestroy: 'before-destroy hook',
  valueSources: 'value source',
};

/**
 * An empty registry handing `services` to what registers in it.
 * @example const registry = createRegistry(services); registry.handler('versions.list', { run: listVersions });
 */
export function createRegistry(services: HandlerServices): ActionRegistry {
  const registered: ServerActions = { handlers: {}, checks: {}, beforeDestroy: {}, valueSources: {} };
  const put = <K extends keyof ServerActions>(kind: K, name: string, value: ServerActions[K][string]) => {
    if (Object.hasOwn(registered[kind], name)) throw new Error(`Two server/actions ${KINDS[kind]}s are named "${name}"`);
    registered[kind][name] = value;
  };
  const registry: ActionRegistry = {
    services,
    registered,
    handler: (name, handler) => put('handlers', name, handler),
    check: (name, check) => put('checks', name, check),
    beforeDestroy: (name, hook) => put('beforeDestroy', name, hook),
    valueSource: (name, source) => put('valueSources', name, source),
    add(actions) {
      for (const kind of Object.keys(KINDS) as (keyof ServerActions)[]) {
        for (const [name, value] of Object.entries(actions[kind] ?? {})) put(kind, name, value);
      }
    },
  };
  return registry;
}

/**
 * Stops the start when a manifest names a check, hook or value source nobody registered (an unknown handler stops
 * it as its route is built, server/crud/kinds/custom.ts), when a public
 * action names a staff handler or a device handler serves a staff action: run once every folder has registered.
 * @example checkRegistered(app.manifests, app.serverActions.registered);
 */
export function checkRegistered(manifests: Manifest[], actions: ServerActions): void {
  for (const m of manifests) {
    for (const [name, action] of Object.entries(m.actions)) {
      for (const [role, fields] of Object.entries(action.forRole ?? {})) {
        for (const source of Object.values(fields ?? {})) {
          if (!actions.valueSources[source]) throw new Error(`${m.entity}.actions.${name}.forRole.${role}: no value source "${source}"`);
        }
      }
    }
  }
  checkPublicActions(manifests, actions);
  for (const m of manifests) {
    for (const [name, action] of Object.entries(m.actions)) {
      if (action.check && !actions.checks[action.check]) throw new Error(`action ${name}: no server/actions check named "${action.check}"`);
      if (action.before && !actions.beforeDestroy[action.before]) throw new Error(`action ${name}: no server/actions before-destroy hook named "${action.before}"`);
    }
  }
}

/** Stops the start when a public action names a staff handler or a device handler serves a staff action. */
export function checkPublicActions(manifests: Manifest[], actions: Pick<ServerActions, 'handlers'>): void {
  for (const m of manifests) {
    for (const [name, action] of Object.entries(m.actions)) {
      const handler = action.kind === 'custom' ? actions.handlers[action.handler!] : undefined;
      if (!handler || !handler.public === !action.public) continue;
      const what = handler.public ? 'is a device handler, the action is not public' : 'is not a device handler, the action is public';
      throw new Error(`${m.entity}.actions.${name} (${action.path}): handler "${action.handler}" ${what}`);
    }
  }
}

export const registryPlugin = fp(
  async (app: FastifyInstance, options: RegistryOptions) => {
    const services: HandlerServices = {
      db: app.db,
      caps: app.caps,
      health: app.health,
      log: app.log,
      manifests: app.manifests,
      models: app.models,
      changes: app.changes,
      live: app.live,
      dataDir: options.dataDir,
    };
    const registry = createRegistry(services);
    if (options.extra) registry.add(options.extra);
    app.decorate('serverActions', registry);
  },
  {
    name: 'handlers',
    dependencies: ['manifests', 'db', 'live-hub', 'changes'],
    decorators: { fastify: ['db', 'caps', 'health', 'manifests', 'models', 'changes', 'live'] },
    fastify: '5.x',
  },
);
