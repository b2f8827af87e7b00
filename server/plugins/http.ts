// The `cors` and `compress` plugins: what every answer goes through before any route sees it.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import compress from '@fastify/compress';

/** Text answers worth compressing: JSON, HTML, CSV, CSS and scripts; not octet-stream (build files) nor images. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|javascript(?:;|$)/;

/** CORS for the other origins allowed to call the API (CORS_ORIGINS); none listed, nothing registers. */
export const corsPlugin = fp(
  async (app: FastifyInstance, options: { origins: string[] }) => {
    if (options.origins.length) await app.register(cors, { origin: options.origins });
  },
  { name: 'cors', fastify: '5.x' },
);

/**
 * Answers, /docs and CSV exports compressed (brotli or gzip, as the client accepts) from 1 KiB on; the panel's own
 * assets are compressed at build and served as they are. Request bodies are never inflated: a compressed body
 * would slip past the body limits, which count the bytes received. Uploaded files (images, builds) are left alone.
 * Before the routes: @fastify/compress sets each route's hook as the route is registered.
 */
export const compressPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(compress, { globalDecompression: false, customTypes: COMPRESSIBLE });
  },
  { name: 'compress', fastify: '5.x' },
);
