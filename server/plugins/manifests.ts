// The `manifests` plugin: what the application is made of, read and checked before anything opens
// (server/app.ts), decorated for the plugins that build on it.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Manifest } from '../../kernel/manifest/types.ts';
import type { EntityModel } from '../model/model.ts';

export interface ManifestsOptions {
  manifests: Manifest[];
  /** Models of the entities that have a table, by entity name. */
  models: Map<string, EntityModel>;
  /** The entity that `provides: accounts` (the users who log in). */
  accounts: EntityModel;
}

declare module 'fastify' {
  interface FastifyInstance {
    manifests: Manifest[];
    models: Map<string, EntityModel>;
    accounts: EntityModel;
  }
}

export const manifestsPlugin = fp(
  async (app: FastifyInstance, options: ManifestsOptions) => {
    app.decorate('manifests', options.manifests);
    app.decorate('models', options.models);
    app.decorate('accounts', options.accounts);
  },
  { name: 'manifests', fastify: '5.x' },
);
