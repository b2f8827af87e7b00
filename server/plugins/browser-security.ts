// What the server promises browsers: the panel under a strict Content-Security-Policy (scripts only from its own
// origin, never eval; no framing), nosniff and no Referer on every answer, and the panel and /config.json only
// on the panel's hosts (PANEL_HOSTS, PUBLIC_URL's host; localhost when neither is set), the Host read strictly
// (server/hosts.ts: `localhost:@evil.example` is no localhost). Uploaded files set their own policy (a sandbox,
// server/plugins/assets.ts).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configuredRequestHost } from '../hosts.ts';
import { isApiPath } from './panel.ts';

export interface BrowserSecurityOptions {
  /** Host names that may show the panel, canonical (availableHosts). */
  panelHosts: string[];
  /** The backend URL the panel talks to (PUBLIC_URL), when it is another origin than the panel's. */
  publicUrl?: string;
  /** URL prefixes of stored files (`/whitelabels/`, `/builds/`): served to devices on any host. */
  filePrefixes: string[];
}

/**
 * The panel's policy. Styles may be inline because MUI (emotion) injects <style> elements at run time; scripts
 * may not, and nothing may be evaluated: the forms' validators are compiled at build time.
 */
export function panelCsp(publicUrl?: string): string {
  const backend = publicUrl ? new URL(publicUrl) : undefined;
  const api = backend ? ` ${backend.origin}` : '';
  const socket = backend ? ` ${backend.protocol === 'https:' ? 'wss:' : 'ws:'}//${backend.host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${api}`,
    "font-src 'self' data:",
    `connect-src 'self'${api}${socket}`,
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** API answers are data: they may load nothing and be framed by nobody. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** What a host outside the panel's hosts gets instead of the panel (SPEC 1's text, and nothing else). */
const NO_ACCESS_PAGE = '<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Нет доступа!</title></head><body>Нет доступа!</body></html>';

export function registerBrowserSecurity(app: FastifyInstance, options: BrowserSecurityOptions): void {
  const csp = panelCsp(options.publicUrl);
  const hosts = new Set(options.panelHosts);
  const isFile = (url: string) => options.filePrefixes.some((prefix) => url.startsWith(prefix));
  const isPanel = (url: string) => url === '/config.json' || url.startsWith('/config.json?') || !(isApiPath(url) || isFile(url));

  app.addHook('onRequest', async (request, reply) => {
    if (!isPanel(request.url) || configuredRequestHost(request, hosts)) return;
    reply.header('content-security-policy', API_CSP).status(403);
    if (request.url.startsWith('/config.json')) return reply.send({ result: false, message: 'The panel is not served on this host', code: 'ERR_HOST' });
    return reply.type('text/html; charset=utf-8').send(NO_ACCESS_PAGE);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', isPanel(request.url) ? csp : API_CSP);
    return payload;
  });
}

/** The `browser-security` plugin: its headers go on every answer, compressed or not (after `compress`). */
export const browserSecurityPlugin = fp(async (app: FastifyInstance, options: BrowserSecurityOptions) => registerBrowserSecurity(app, options), {
  name: 'browser-security',
  dependencies: ['compress'],
  fastify: '5.x',
});
