// Registers every action of every manifest at its exact method and path, behind its role rule.
import type { FastifyInstance } from 'fastify';
import type { Manifest } from '../../src/core/manifest/types.ts';
import { requireRoles, type AuthUser } from '../plugins/auth.ts';
import { publicCallGate } from '../plugins/public-rate-limit.ts';
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
        // A public (device) call: no role rule, a token sent is ignored, the per-address limit instead.
        preHandler: action.public ? publicCallGate(app) : requireRoles(action.roles),
        handler: async (request) => {
          const input = readRaw(request, source);
          const actor = (action.public ? null : request.user) as AuthUser;
          const client = { ip: request.ip, origin: `${request.protocol}://${request.host}` };
          const data = await handler({ input, source, actor, path: action.path, entity: manifest.entity, client });
          return { result: true, data };
        },
      });
    }
  }
}
