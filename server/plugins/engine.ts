// The `engine` plugin: the Engine (server/core/context.ts) put together from what the plugins below it decorate, for
// the code that hands it on whole: the manifests' routes (crud, exports) give it to the custom actions' ActionContext,
// and the sessions' cache, the device lookup's snapshot and the GitLab service are kept per Engine.
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
    const engine: Engine = {
      db: app.db,
      caps: app.caps,
      health: app.health,
      log: app.log,
      manifests: app.manifests,
      models: app.models,
      accounts: app.accounts,
      audit: app.audit,
      live: app.live,
      changes: app.changes,
      dataDir: options.dataDir,
      sessions: options.sessions,
      actions: app.actions,
      listCountLimit: options.listCountLimit,
      reads: app.reads,
    };
    app.decorate('engine', engine);
  },
  {
    name: 'engine',
    dependencies: ['manifests', 'db', 'audit', 'live-hub', 'changes'],
    decorators: { fastify: ['db', 'caps', 'health', 'reads', 'manifests', 'models', 'accounts', 'actions', 'audit', 'live', 'changes'] },
    fastify: '5.x',
  },
);
