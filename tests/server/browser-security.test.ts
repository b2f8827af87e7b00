// Browser hardening: the panel under a strict CSP (no eval, no framing), nosniff and no Referer everywhere,
// stored files as sandboxed documents, and no panel and no /config.json for a host that is not the panel's.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect } from './harness.ts';

/** A stand-in for the built panel: the server's behaviour is under test here, not the build. */
function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'panel-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("panel")');
  return dir;
}

forEachDialect(
  'browser security',
  (h) => {
    const get = (url: string, host = 'panel.example.com') => h.app.inject({ url, headers: { host } });

    it('serves the panel under a strict policy: scripts from its origin only, no eval, no framing, nosniff, no Referer', async () => {
      for (const url of ['/', '/platforms', '/assets/app.js']) {
        const reply = await get(url);
        expect(reply.statusCode, url).toBe(200);
        const csp = String(reply.headers['content-security-policy']);
        expect(csp).toContain("script-src 'self';");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("object-src 'none'");
        expect(csp).not.toContain('unsafe-eval');
        expect(csp).toContain('connect-src \'self\' https://api.example.com wss://api.example.com');
        expect(reply.headers['x-content-type-options']).toBe('nosniff');
        expect(reply.headers['referrer-policy']).toBe('no-referrer');
        expect(reply.headers['x-frame-options']).toBe('DENY');
      }
    });

    it('gives a host that is not the panel\'s neither the panel nor /config.json', async () => {
      const page = await get('/platforms', 'evil.example.net');
      expect(page.statusCode).toBe(403);
      expect(page.body).toContain('Нет доступа!');
      expect(page.body).not.toContain('<script');
      expect((await get('/assets/app.js', 'evil.example.net')).statusCode).toBe(403);
      const config = await get('/config.json', 'evil.example.net');
      expect(config.statusCode).toBe(403);
      expect(config.json()).toEqual({ result: false, code: 'ERR_HOST', message: 'The panel is not served on this host' });
    });

    it('answers /config.json on the panel\'s hosts with the configured backend, never the request\'s Host', async () => {
      for (const host of ['panel.example.com', 'api.example.com']) {
        const config = await get('/config.json', host);
        expect(config.statusCode).toBe(200);
        expect(config.json()).toEqual({ backendUrl: 'https://api.example.com', availableHosts: ['api.example.com', 'panel.example.com'] });
      }
    });

    it('still answers the API on any host, as data that loads nothing', async () => {
      const health = await get('/healthz', 'device.example.org');
      expect(health.statusCode).toBe(200);
      expect(health.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(health.headers['x-content-type-options']).toBe('nosniff');
      const login = await h.app.inject({ method: 'POST', url: '/v1/user/login', headers: { host: 'device.example.org' }, payload: { email: 'x@y.io', password: 'nope' } });
      expect(login.statusCode).toBe(401);
    });

    it('serves an uploaded file as a sandboxed document with nosniff, on any host', async () => {
      expect((await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('sandboxed') })).status).toBe(200);
      for (const url of ['/whitelabels/sandboxed_1280x720.png', '/whitelabels/sandboxed/styles/indexHtml.css']) {
        const file = await get(url, 'tv.example.org');
        expect(file.statusCode, url).toBe(200);
        expect(file.headers['content-security-policy']).toBe('sandbox');
        expect(file.headers['x-content-type-options']).toBe('nosniff');
      }
    });
  },
  { config: { distDir: fakeDist(), panelHosts: ['panel.example.com'], publicUrl: 'https://api.example.com' } },
);
