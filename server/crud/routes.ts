// Registers every action of every manifest at its exact method and path, behind its role rule.
import type { FastifyInstance } from 'fastify';
import type { Manifest } from '../../src/core/manifest/types.ts';
import { requireRoles, type AuthUser } from '../plugins/auth.ts';
import { customHandlers } from '../actions/index.ts';
import type { Engine } from './context.ts';
import { buildHandler } from './handlers.ts';
import { inputSource, readRaw } from './input.ts';

export function registerCrudRoutes(app: FastifyInstance, engine: Engine, manifests: Manifest[]): void {
  for (const manifest of manifests) {
    const model = engine.models.get(manifest.entity);
    for (const [name, action] of Object.entries(manifest.actions)) {
      const handler = buildHandler(engine, model, name, action);
      const source = inputSource(action);
      app.route({
        method: action.method,
        url: action.path,
        bodyLimit: action.kind === 'custom' ? customHandlers[action.handler!]?.bodyLimit : undefined,
        preHandler: requireRoles(action.roles),
        handler: async (request) => {
          const input = readRaw(request, source);
          const data = await handler({ input, source, actor: request.user as AuthUser, path: action.path, entity: manifest.entity });
          return { result: true, data };
        },
      });
    }
  }
}
