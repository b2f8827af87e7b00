// What the browser loads besides the API: /config.json, /healthz and the built panel (dist/) with the
// single-page fallback to index.html for GETs outside the API.
import { existsSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

export interface PanelOptions {
  publicUrl?: string;
  panelHosts?: string[];
  distDir: string;
}

/** The hosts that may show the panel: PANEL_HOSTS and PUBLIC_URL's host; localhost and 127.0.0.1 when PANEL_HOSTS is unset. */
export function availableHosts(options: PanelOptions): string[] {
  const hosts = options.panelHosts?.length ? [...options.panelHosts] : ['localhost', '127.0.0.1'];
  if (options.publicUrl) hosts.unshift(new URL(options.publicUrl).hostname);
  return [...new Set(hosts)];
}

function backendUrl(options: PanelOptions, request: FastifyRequest): string {
  if (options.publicUrl) return options.publicUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** True for paths the SPA fallback must not answer (they are API or system paths). */
export const isApiPath = (url: string) => /^\/(v1|socket\.io)(\/|$|\?)/.test(url) || url.startsWith('/healthz') || url.startsWith('/config.json');

export async function registerPanel(app: FastifyInstance, options: PanelOptions): Promise<boolean> {
  app.get('/config.json', async (request) => ({ backendUrl: backendUrl(options, request), availableHosts: availableHosts(options) }));
  app.get('/healthz', async () => ({ result: true, data: { status: 'ok' } }));
  const hasPanel = existsSync(`${options.distDir}/index.html`);
  // The build writes .br/.gz beside each asset; the served variant follows Accept-Encoding.
  if (hasPanel) await app.register(fastifyStatic, { root: options.distDir, preCompressed: true });
  return hasPanel;
}
