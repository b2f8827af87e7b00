// The `engine` plugin: the whole Engine (server/core/context.ts) put together from what the other plugins decorate,
// as `app.engine`, for the code outside the server that reaches into a running app: the tests, the benchmarks and
// the demo script (`app.engine.db`, `app.engine.dataDir`). No plugin of the server depends on it or reads it: each
// builds its own narrow context from the decorations it depends on.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Engine } from '../core/context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    engine: Engine;
  }
}

export interface EngineOptions {
  /** DATA_DIR: uploaded files and the build tree live under it. */
  dataDir: string;
  /** How long a session lives: without a call (idle) and at most (lifetime) after its login. */
  sessions: { idleMs: number; lifetimeMs: number };
  /** Rows a list counts exactly before answering a capped count (LIST_COUNT_LIMIT). */
  listCountLimit?: number;
}

export const enginePlugin = fp(
  async (app: FastifyInstance, options: EngineOptions) => {
    // The registry's services object itself, completed with the rest: what is kept under it (the device lookup's
    // snapshot, the device writes' budget) is then found from `app.engine` too, as the tests do. The handlers still
    // see only their HandlerServices by type.
    const engine: Engine = Object.assign(app.serverActions.services, {
      accounts: app.accounts,
      audit: app.audit,
      sessions: options.sessions,
      actions: app.serverActions,
      listCountLimit: options.listCountLimit,
      reads: app.reads,
    });
    app.decorate('engine', engine);
  },
  {
    name: 'engine',
    dependencies: ['manifests', 'db', 'audit', 'live-hub', 'changes', 'handlers'],
    decorators: { fastify: ['db', 'caps', 'health', 'reads', 'manifests', 'models', 'accounts', 'serverActions', 'audit', 'live', 'changes'] },
    fastify: '5.x',
  },
);
