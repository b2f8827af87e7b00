// What the browser loads besides the API: /config.json, /healthz and the built panel (dist/) with the
// single-page fallback to index.html for GETs outside the API.
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { canonicalHostName } from '../hosts.ts';
import { FAILURES } from '../contract/route-schema.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the built panel (dist/index.html) is served: then a GET outside the API falls back to it. */
    panelServed: boolean;
  }
}

export interface PanelOptions {
  publicUrl?: string;
  panelHosts?: string[];
  distDir: string;
}

/**
 * The hosts that may show the panel, as server/hosts.ts writes them: PANEL_HOSTS and PUBLIC_URL's host; localhost
 * and 127.0.0.1 when PANEL_HOSTS is unset. Throws on a setting that is not a host name.
 */
export function availableHosts(options: PanelOptions): string[] {
  const hosts = (options.panelHosts?.length ? options.panelHosts : ['localhost', '127.0.0.1']).map((h) => canonicalHostName(h, 'PANEL_HOSTS'));
  if (options.publicUrl) hosts.unshift(canonicalHostName(new URL(options.publicUrl).hostname, 'PUBLIC_URL'));
  return [...new Set(hosts)];
}

/** PUBLIC_URL, or '' (the panel's own origin, which the browser resolves): never a host the request named. */
const backendUrl = (options: PanelOptions) => options.publicUrl?.replace(/\/+$/, '') ?? '';

/** True for paths the SPA fallback must not answer (they are API or system paths). */
export const isApiPath = (url: string) => /^\/(v1|socket\.io)(\/|$|\?)/.test(url) || url.startsWith('/healthz') || url.startsWith('/config.json');

/** The panel's settings: where its API is and which hosts may show it (SPEC: the panel reads them before anything). */
const CONFIG_SCHEMA = {
  operationId: 'system.config',
  tags: ['system'],
  summary: "The panel's settings",
  description: "Read by the panel before anything else. Answered on the panel's hosts only (elsewhere 403 ERR_HOST); no token.",
  security: [],
  response: {
    '200': {
      description: 'the settings',
      type: 'object',
      additionalProperties: false,
      required: ['backendUrl', 'availableHosts'],
      properties: {
        backendUrl: { type: 'string', description: "PUBLIC_URL, or '' for the panel's own origin" },
        availableHosts: { type: 'array', items: { type: 'string' }, description: 'the hosts that may show the panel' },
      },
    },
    ...FAILURES,
  },
};

/** Liveness: the process answers (it does not ask the database, so a load balancer keeps a server whose database is out). */
const HEALTH_SCHEMA = {
  operationId: 'system.health',
  tags: ['system'],
  summary: 'Liveness',
  description: 'Any host, no token. Answers while the process runs; it does not ask the database.',
  security: [],
  response: {
    '200': {
      description: 'the process is up',
      type: 'object',
      additionalProperties: false,
      required: ['result', 'data'],
      properties: {
        result: { type: 'boolean', const: true },
        data: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { type: 'string', const: 'ok' } } },
      },
    },
    ...FAILURES,
  },
};

export async function registerPanel(app: FastifyInstance, options: PanelOptions): Promise<boolean> {
  app.get('/config.json', { schema: CONFIG_SCHEMA }, async () => ({ backendUrl: backendUrl(options), availableHosts: availableHosts(options) }));
  app.get('/healthz', { schema: HEALTH_SCHEMA }, async () => ({ result: true, data: { status: 'ok' } }));
  const hasPanel = existsSync(`${options.distDir}/index.html`);
  // The build writes .br/.gz beside each asset; the served variant follows Accept-Encoding.
  if (hasPanel) await app.register(fastifyStatic, { root: options.distDir, preCompressed: true });
  return hasPanel;
}

/**
 * The `panel` plugin: /config.json, /healthz and the built panel; decorates `panelServed`. After `compress` and
 * `browser-security`, whose hooks its answers go through, and `contract`, which documents its two calls.
 */
export const panelPlugin = fp(
  async (app: FastifyInstance, options: PanelOptions) => {
    app.decorate('panelServed', await registerPanel(app, options));
  },
  { name: 'panel', dependencies: ['compress', 'browser-security', 'contract'], fastify: '5.x' },
);
