// The `errors` plugin: the one error envelope of the server (server/errors.ts) for every route registered after it
// (a route keeps the error handler set when it is registered), and the 404 that falls back to the panel's
// index.html for a GET outside the API when the panel is served.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { installErrorHandlers } from '../errors.ts';
import { isApiPath } from './panel.ts';

export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    installErrorHandlers(app, app.panelServed ? (url) => !isApiPath(url) : undefined);
  },
  { name: 'errors', dependencies: ['panel'], decorators: { fastify: ['panelServed'] }, fastify: '5.x' },
);
