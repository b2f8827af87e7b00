// What the browser loads besides the API: /config.json, /healthz and the built panel (dist/) with the
// single-page fallback to index.html for GETs outside the API.
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { canonicalHostName } from '../hosts.ts';

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

export async function registerPanel(app: FastifyInstance, options: PanelOptions): Promise<boolean> {
  app.get('/config.json', async () => ({ backendUrl: backendUrl(options), availableHosts: availableHosts(options) }));
  app.get('/healthz', async () => ({ result: true, data: { status: 'ok' } }));
  const hasPanel = existsSync(`${options.distDir}/index.html`);
  // The build writes .br/.gz beside each asset; the served variant follows Accept-Encoding.
  if (hasPanel) await app.register(fastifyStatic, { root: options.distDir, preCompressed: true });
  return hasPanel;
}

/**
 * The `panel` plugin: /config.json, /healthz and the built panel; decorates `panelServed`. After `compress` and
 * `browser-security`, whose hooks its answers go through.
 */
export const panelPlugin = fp(
  async (app: FastifyInstance, options: PanelOptions) => {
    app.decorate('panelServed', await registerPanel(app, options));
  },
  { name: 'panel', dependencies: ['compress', 'browser-security'], fastify: '5.x' },
);
