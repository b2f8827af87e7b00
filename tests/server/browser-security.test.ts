// Browser hardening: the panel under a strict CSP (no eval, no framing), nosniff and no Referer everywhere,
// stored files as sandboxed documents, and no panel and no /config.json for a host that is not the panel's, the
// Host read strictly; no answer (config, the lookup's file URLs) carries a host the request named unless configured.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { canonicalHostName, parseHost } from '../../server/hosts.ts';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect, startApp } from './harness.ts';

/** A stand-in for the built panel: the server's behaviour is under test here, not the build. */
function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'panel-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("panel")');
  return dir;
}

/** Host headers that name another host, or no host at all, however close they come to a panel host. */
const HOSTILE_HOSTS = [
  'panel.example.com:@evil.example',
  'evil.example@panel.example.com',
  'panel.example.com@evil.example',
  'panel.example.com/evil',
  'panel.example.com?x',
  'panel.example.com#x',
  'panel.example.com, evil.example',
  'panel.example.com evil.example',
  'panel.example.com:',
  'panel.example.com:0',
  'panel.example.com:99999',
  'panel.example.com:80:80',
  'panel.example.com.',
  'panel.example.com..',
  'panel%2eexample.com',
  'panel.example.com\\evil',
  '[panel.example.com]',
  '[::1',
  '::1',
  '',
];

it('reads a Host strictly: host[:port], any case, IPv6 in brackets; userinfo, paths, lists and bad ports are no host', () => {
  expect(parseHost('PANEL.Example.COM')).toEqual({ hostname: 'panel.example.com', port: undefined, host: 'panel.example.com' });
  expect(parseHost('panel.example.com:8443')).toEqual({ hostname: 'panel.example.com', port: 8443, host: 'panel.example.com:8443' });
  expect(parseHost('[::1]:8080')).toEqual({ hostname: '[::1]', port: 8080, host: '[::1]:8080' });
  expect(parseHost('[0:0:0:0:0:0:0:1]')).toEqual({ hostname: '[::1]', port: undefined, host: '[::1]' });
  expect(parseHost('127.0.0.1:80')?.hostname).toBe('127.0.0.1');
  expect(parseHost('localhost.')?.hostname).toBe('localhost.');
  for (const host of [...HOSTILE_HOSTS.filter((h) => h !== 'panel.example.com.'), 'localhost:@evil.example', '[::1]x', '[fe80::1%25eth0]']) {
    expect(parseHost(host), host).toBeUndefined();
  }
  expect(canonicalHostName('::1', 'PANEL_HOSTS')).toBe('[::1]');
  expect(() => canonicalHostName('panel.example.com:8080', 'PANEL_HOSTS')).toThrow('PANEL_HOSTS: "panel.example.com:8080" is not a host name');
});

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

    it('refuses the panel and /config.json to every Host that is not exactly a panel host, however close it comes', async () => {
      for (const host of HOSTILE_HOSTS) {
        for (const url of ['/config.json', '/platforms']) expect((await get(url, host)).statusCode, `${url} on ${host}`).toBe(403);
      }
      for (const host of ['PANEL.example.com', 'panel.example.com:8443', 'Api.Example.Com:443']) expect((await get('/config.json', host)).statusCode, host).toBe(200);
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

forEachDialect(
  'hosts without PUBLIC_URL',
  (h) => {
    const get = (url: string, host: string) => h.app.inject({ url, headers: { host } });
    const lookupOn = (host: string) =>
      h.app.inject({ url: `/v1/combination/get?whitelabel=hosted&platform=${encodeURIComponent('{"name":"tizen"}')}`, headers: { host } });

    beforeAll(async () => {
      expect((await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('hosted') })).status).toBe(200);
      expect((await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'tizen', maxVersion: '01.20.34' } })).status).toBe(200);
      dropBuild(h.app.engine.dataDir, ['hosted', 'tizen', '1.20.34', '1080p']);
      await h.admin('GET', '/v1/admin/build/reload');
    });

    it('answers /config.json with the panel\'s own origin (""), never a host the request named', async () => {
      for (const host of ['panel.example.com', 'panel.example.com:8443', '[::1]:8080']) {
        const config = await get('/config.json', host);
        expect(config.statusCode, host).toBe(200);
        expect(config.json()).toEqual({ backendUrl: '', availableHosts: ['panel.example.com', '[::1]'] });
      }
      for (const host of HOSTILE_HOSTS) expect((await get('/config.json', host)).statusCode, host).toBe(403);
      for (const host of ['localhost', 'localhost:@panel.example.com']) expect((await get('/config.json', host)).statusCode, host).toBe(403);
    });

    it('builds the lookup\'s file URLs on a panel host only; on any other Host they are paths of this server', async () => {
      const onPanel = (await lookupOn('PANEL.example.com:8443')).json().data;
      expect(onPanel.build.urls).toEqual(['http://panel.example.com:8443/builds/hosted/tizen/1.20.34/1080p/app.js', 'http://panel.example.com:8443/builds/hosted/tizen/1.20.34/1080p/index.css']);
      expect(onPanel.whitelabel.cssConfig).toBe('http://panel.example.com:8443/whitelabels/hosted/styles/indexHtml.css');
      expect((await lookupOn('[::1]:8080')).json().data.whitelabel.imageHD).toBe('http://[::1]:8080/whitelabels/hosted_1280x720.png');
      for (const host of [...HOSTILE_HOSTS, 'localhost:@evil.example', 'evil.example', 'tv.example.org:8080']) {
        const reply = await lookupOn(host);
        expect(reply.statusCode, host).toBe(200);
        const data = reply.json().data;
        expect(data.build.urls, host).toEqual(['/builds/hosted/tizen/1.20.34/1080p/app.js', '/builds/hosted/tizen/1.20.34/1080p/index.css']);
        expect([data.whitelabel.imageHD, data.whitelabel.imageFHD, data.whitelabel.cssConfig], host).toEqual([
          '/whitelabels/hosted_1280x720.png',
          '/whitelabels/hosted_1920x1080.png',
          '/whitelabels/hosted/styles/indexHtml.css',
        ]);
      }
    });

    it('refuses to start on a PANEL_HOSTS entry that is not a host name', async () => {
      await expect(startApp(h.dialect, { config: { panelHosts: ['panel.example.com:8080'] } })).rejects.toThrow('PANEL_HOSTS: "panel.example.com:8080" is not a host name');
    });
  },
  { config: { distDir: fakeDist(), panelHosts: ['panel.example.com', '::1'] } },
);
