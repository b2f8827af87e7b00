// The public device lookup GET /v1/combination/get (docs/device-api.md): each rule of the resolution order, their
// precedence, what the answer holds (public fields only), bad parameters, and that a panel write changes the
// very next answer. Every case on SQLite and PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { deviceSnapshot } from '../../server/actions/device/lookup.ts';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';
import { ADMIN, forEachDialect, type Harness } from './harness.ts';

const LOOKUP = '/v1/combination/get';
const TESTER_IP = '10.9.0.77';
const OFFICE_IP = '203.0.113.10';

/** The lookup as a device sends it; `platform` is the name the JSON parameter carries. */
export function lookup(h: Harness, query: Record<string, string>, remoteAddress = '198.51.100.1', token?: string) {
  const { platform, ...rest } = query;
  return h.call('GET', LOOKUP, { query: { ...rest, ...(platform ? { platform: JSON.stringify({ name: platform }) } : {}) }, remoteAddress, token });
}

forEachDialect('device lookup', (h) => {
  const ids: Record<string, number> = {};
  const builds: Record<string, number> = {};

  beforeAll(async () => {
    ids.acme = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('acme') })).body.data.id;
    ids.other = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('other') })).body.data.id;
    ids.tizen = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'tizen', maxVersion: '01.20.34' } })).body.data.id;
    ids.webos = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'webos', maxVersion: '01.20.33' } })).body.data.id;
    const dataDir = h.app.engine.dataDir;
    for (const version of ['1.20.33', '1.20.34', '1.20.35']) dropBuild(dataDir, ['acme', 'tizen', version, '1080p']);
    dropBuild(dataDir, ['acme', 'tizen', '1.20.34', '720p']);
    for (const version of ['1.20.33', '1.20.34']) dropBuild(dataDir, ['acme', 'webos', version, '1080p']);
    dropBuild(dataDir, ['other', 'tizen', '1.20.34', '1080p']);
    await h.admin('GET', '/v1/admin/build/reload');
    for (const row of (await h.admin('GET', '/v1/admin/build/get', { query: { pageSize: 100 } })).body.data.rows) builds[row.name] = row.id;
    await h.admin('GET', '/v1/admin/testersIP/add', { query: { ip: '10.9.0.0/24', vendor: 'custom' } });
    await h.admin('POST', '/v1/admin/tech-support/add', { body: { whitelabelId: ids.acme, url: 'https://help.acme.example.com/' } });
    await h.admin('POST', '/v1/admin/localisation/add', { form: { whitelabelId: String(ids.acme), isActive: 'true', translations: JSON.stringify({ en: { hi: 'Hello' } }) } });
    await h.admin('POST', '/v1/admin/wlConfig/add', { form: { whitelabelId: String(ids.acme), isActive: 'false', config: JSON.stringify({ theme: 'dark' }) } });
  });

  describe('rule 5, the newest available build', () => {
    it('answers the newest build within the platform and whitelabel max version, with everything the app needs to start', async () => {
      const reply = await lookup(h, { whitelabel: 'acme', platform: 'tizen', resolution: '1080p' });
      expect(reply.status).toBe(200);
      const data = reply.body.data;
      expect(data.matchedBy).toBe('latest');
      expect(data.build).toEqual({
        name: 'acme-tizen-1.20.34-1080p',
        version: '1.20.34',
        resolution: '1080p',
        urls: ['http://localhost:80/builds/acme/tizen/1.20.34/1080p/app.js', 'http://localhost:80/builds/acme/tizen/1.20.34/1080p/index.css'],
        forceLocalBuild: false,
      });
      expect(data.whitelabel).toEqual({
        name: 'acme',
        feUrl: 'https://acme.example.com/',
        imageHD: 'http://localhost:80/whitelabels/acme_1280x720.png',
        imageFHD: 'http://localhost:80/whitelabels/acme_1920x1080.png',
        cssConfig: 'http://localhost:80/whitelabels/acme/styles/indexHtml.css',
      });
      expect(data.platform).toEqual({ name: 'tizen' });
      expect(data.localisation).toEqual({ en: { hi: 'Hello' } });
      expect(data.config).toBeNull(); // the WL config is not active
      expect(data.techSupportUrl).toBe('https://help.acme.example.com/');
      expect(data.experiment).toBeNull();
      expect(data.ip).toBe('198.51.100.1');
    });

    it('gives only public fields: no staff ids or e-mails, no deploy configuration, no descriptions', async () => {
      const reply = await lookup(h, { whitelabel: 'acme', platform: 'tizen' }, '198.51.100.1', h.tokens.admin);
      expect(Object.keys(reply.body.data).sort()).toEqual(
        ['build', 'config', 'experiment', 'ip', 'localisation', 'matchedBy', 'platform', 'techSupportUrl', 'whitelabel'].sort(),
      );
      expect(reply.raw).not.toMatch(/deployConfiguration|replicas|description|@test\.io|userId|"id"/);
    });

    it('keeps to the platform max version when it is the lower one', async () => {
      const reply = await lookup(h, { whitelabel: 'acme', platform: 'webos' });
      expect(reply.body.data.build.version).toBe('1.20.33');
    });

    it('offers a version on test that is not published only to a caller in the tester IP list', async () => {
      const added = await h.admin('GET', '/v1/admin/versionsInStoreOnTest/add', { query: { whitelabelId: ids.acme, platformId: ids.tizen, appVersion: '1.20.34' } });
      const device = await lookup(h, { whitelabel: 'acme', platform: 'tizen', resolution: '1080p' });
      expect(device.body.data.build.version).toBe('1.20.33');
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen', resolution: '1080p' }, TESTER_IP)).body.data.build.version).toBe('1.20.34');
      // The Test request case: the address in ipAddress stands for the caller's.
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen', resolution: '1080p', ipAddress: TESTER_IP })).body.data.build.version).toBe('1.20.34');
      await h.admin('GET', '/v1/admin/versionsInStoreOnTest/edit', { query: { id: added.body.data.id, isPublished: true } });
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen', resolution: '1080p' })).body.data.build.version).toBe('1.20.34');
      await h.admin('GET', '/v1/admin/versionsInStoreOnTest/remove', { query: { id: added.body.data.id } });
    });

    it('passes over a build marked unavailable', async () => {
      const reply = await lookup(h, { whitelabel: 'acme', platform: 'tizen', resolution: '720p' });
      expect(reply.body.data.build.name).toBe('acme-tizen-1.20.34-720p');
      await h.app.engine.db.updateTable('builds').set({ isAvailable: h.app.engine.caps.toDbBoolean(false) }).where('name', '=', 'acme-tizen-1.20.34-720p').execute();
      // A write outside the panel reaches the snapshot through the change feed of the next panel write (or the timer).
      h.app.engine.changes.emit({ entity: 'build', path: 'test' });
      const after = await lookup(h, { whitelabel: 'acme', platform: 'tizen', resolution: '720p' });
      expect(after.status).toBe(404);
      expect(after.body.message).toMatch(/No build for whitelabel acme, platform tizen, resolution 720p/);
      await h.app.engine.db.updateTable('builds').set({ isAvailable: h.app.engine.caps.toDbBoolean(true) }).where('name', '=', 'acme-tizen-1.20.34-720p').execute();
      h.app.engine.changes.emit({ entity: 'build', path: 'test' });
    });
  });

  describe('rules 1, 2 and 4, the combinations, and their precedence', () => {
    let published = 0;
    let byIp = 0;
    let byDevice = 0;

    it('answers the published combination of the whitelabel and platform before the newest build', async () => {
      published = (await h.admin('GET', '/v1/admin/combination/add', { query: { whitelabelId: ids.acme, platformId: ids.tizen, buildId: builds['acme-tizen-1.20.33-1080p'], isPublished: true, description: 'internal note' } })).body.data.id;
      const reply = await lookup(h, { whitelabel: 'acme', platform: 'tizen' });
      expect(reply.body.data.matchedBy).toBe('published');
      expect(reply.body.data.build.name).toBe('acme-tizen-1.20.33-1080p');
      expect(reply.raw).not.toContain('internal note');
    });

    it('changes the next answer as soon as the combination is edited in the panel', async () => {
      await h.admin('GET', '/v1/admin/combination/edit', { query: { id: published, buildId: builds['acme-tizen-1.20.34-720p'] } });
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen' })).body.data.build.name).toBe('acme-tizen-1.20.34-720p');
      await h.admin('GET', '/v1/admin/combination/edit', { query: { id: published, isPublished: false } });
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen' })).body.data.matchedBy).toBe('latest');
      await h.admin('GET', '/v1/admin/combination/edit', { query: { id: published, isPublished: true, buildId: builds['acme-tizen-1.20.33-1080p'] } });
    });

    it('answers the combination of the caller IP before the published one, from the socket address or from ipAddress', async () => {
      byIp = (await h.admin('GET', '/v1/admin/combination/add', { query: { whitelabelId: ids.acme, platformId: ids.tizen, buildId: builds['acme-tizen-1.20.35-1080p'], ipAddress: OFFICE_IP } })).body.data.id;
      const fromSocket = await lookup(h, { whitelabel: 'acme', platform: 'tizen' }, OFFICE_IP);
      expect(fromSocket.body.data.matchedBy).toBe('ip');
      expect(fromSocket.body.data.build.version).toBe('1.20.35'); // a pin is not held to the max versions
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen', ipAddress: OFFICE_IP })).body.data.matchedBy).toBe('ip');
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen' })).body.data.matchedBy).toBe('published');
    });

    it('does not apply an IP combination of another whitelabel or platform', async () => {
      expect((await lookup(h, { whitelabel: 'acme', platform: 'webos' }, OFFICE_IP)).body.data.matchedBy).toBe('latest');
      expect((await lookup(h, { whitelabel: 'other', platform: 'tizen' }, OFFICE_IP)).body.data.matchedBy).toBe('latest');
    });

    it('ignores X-Forwarded-For from a proxy that is not trusted', async () => {
      const reply = await h.call('GET', LOOKUP, {
        query: { whitelabel: 'acme', platform: JSON.stringify({ name: 'tizen' }) },
        headers: { 'x-forwarded-for': OFFICE_IP },
        remoteAddress: '198.51.100.7',
      });
      expect(reply.body.data.matchedBy).toBe('published');
      expect(reply.body.data.ip).toBe('198.51.100.7');
    });

    it('answers the combination of the device before the IP one, with its custom URLs and force-local flag', async () => {
      byDevice = (
        await h.admin('GET', '/v1/admin/combination/add', {
          query: {
            whitelabelId: ids.acme,
            platformId: ids.tizen,
            buildId: builds['acme-tizen-1.20.33-1080p'],
            appInstallId: 'tv-42',
            customBuildUrls: JSON.stringify(['https://cdn.example.com/hotfix/app.js']),
            forceLocalBuild: true,
          },
        })
      ).body.data.id;
      const reply = await lookup(h, { whitelabel: 'acme', platform: 'tizen', appInstallId: 'tv-42' }, OFFICE_IP);
      expect(reply.body.data.matchedBy).toBe('device');
      expect(reply.body.data.build).toEqual({
        name: 'acme-tizen-1.20.33-1080p',
        version: '1.20.33',
        resolution: '1080p',
        urls: ['https://cdn.example.com/hotfix/app.js'],
        forceLocalBuild: true,
      });
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen', appInstallId: 'tv-43' }, OFFICE_IP)).body.data.matchedBy).toBe('ip');
    });

    it('finds the device combination from the installation GUID alone, naming its whitelabel and platform', async () => {
      const reply = await lookup(h, { appInstallId: 'tv-42' });
      expect(reply.body.data.matchedBy).toBe('device');
      expect(reply.body.data.whitelabel.name).toBe('acme');
      expect(reply.body.data.platform).toEqual({ name: 'tizen' });
    });

    it('gives the experiment group of an active experiment before the published combination, after the device one', async () => {
      const experiment = await h.admin('POST', '/v1/admin/abtesting/add', {
        form: {
          whitelabelId: String(ids.acme),
          platformIds: JSON.stringify([ids.tizen]),
          recordsCount: '1',
          isCollecting: 'true',
          isRandomSaveEnable: 'false',
          versionsDeploymentSettings: JSON.stringify([{ count: 1, groupName: 'B', customUrl: 'https://cdn.example.com/ab/b/', files: { tizen: ['bundleB.js', 'styleB.css'] } }]),
        },
      });
      const id = experiment.body.data.id;
      const joining = await lookup(h, { whitelabel: 'acme', platform: 'tizen', appInstallId: 'tv-ab' });
      expect(joining.body.data.matchedBy).toBe('published');
      expect(joining.body.data.experiment).toEqual({ id, group: 1, groupName: 'B', isActive: false });
      await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id: String(id), isCollecting: 'false' } });
      expect((await h.admin('POST', '/v1/admin/abtesting/changeIsActive', { body: { id } })).status).toBe(200);
      const active = await lookup(h, { whitelabel: 'acme', platform: 'tizen', appInstallId: 'tv-ab' });
      expect(active.body.data.matchedBy).toBe('experiment');
      expect(active.body.data.build).toEqual({
        name: 'B',
        version: null,
        resolution: null,
        urls: ['https://cdn.example.com/ab/b/bundleB.js', 'https://cdn.example.com/ab/b/styleB.css'],
        customUrl: 'https://cdn.example.com/ab/b/',
        forceLocalBuild: false,
      });
      expect(active.body.data.experiment).toEqual({ id, group: 1, groupName: 'B', isActive: true });
      // The IP rule comes first: the office sees its pin even from a device of the collection.
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen', appInstallId: 'tv-ab' }, OFFICE_IP)).body.data.matchedBy).toBe('ip');
      await h.admin('GET', '/v1/admin/combination/destroy', { query: { id: byIp } });
      await h.admin('GET', '/v1/admin/combination/add', { query: { whitelabelId: ids.acme, platformId: ids.tizen, buildId: builds['acme-tizen-1.20.33-1080p'], appInstallId: 'tv-ab' } });
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen', appInstallId: 'tv-ab' })).body.data.matchedBy).toBe('device');
      await h.admin('DELETE', '/v1/admin/abtesting/destroy', { query: { id } });
    });

    it('passes over a device or published combination whose build has no files left and no custom URLs', async () => {
      await h.admin('GET', '/v1/admin/combination/edit', { query: { id: byDevice, customBuildUrls: '[]', buildId: builds['acme-tizen-1.20.34-720p'] } });
      const newer = await h.admin('GET', '/v1/admin/combination/add', { query: { whitelabelId: ids.acme, platformId: ids.tizen, buildId: builds['acme-tizen-1.20.34-720p'], isPublished: true } });
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen' })).body.data.build.name).toBe('acme-tizen-1.20.34-720p');
      await h.app.engine.db.updateTable('builds').set({ isAvailable: h.app.engine.caps.toDbBoolean(false) }).where('name', '=', 'acme-tizen-1.20.34-720p').execute();
      h.app.engine.changes.emit({ entity: 'build', path: 'test' });
      const fallback = await lookup(h, { whitelabel: 'acme', platform: 'tizen', appInstallId: 'tv-42' });
      expect(fallback.body.data.matchedBy).toBe('published');
      expect(fallback.body.data.build.name).toBe('acme-tizen-1.20.33-1080p');
      await h.app.engine.db.updateTable('builds').set({ isAvailable: h.app.engine.caps.toDbBoolean(true) }).where('name', '=', 'acme-tizen-1.20.34-720p').execute();
      h.app.engine.changes.emit({ entity: 'build', path: 'test' });
      expect((await lookup(h, { whitelabel: 'acme', platform: 'tizen', appInstallId: 'tv-42' })).body.data.matchedBy).toBe('device');
      await h.admin('GET', '/v1/admin/combination/destroy', { query: { id: newer.body.data.id } });
    });
  });

  describe('another server process on the same database', () => {
    it("answers with the first process's panel write: at once on PostgreSQL (NOTIFY), at the next poll on SQLite (data_version)", async () => {
      const second = await buildApp({
        config: { dataDir: h.app.engine.dataDir, databaseUrl: h.databaseUrl, adminEmail: ADMIN.email, adminPassword: ADMIN.password, corsOrigins: [], publicUrl: undefined, panelHosts: undefined },
      });
      try {
        const ask = async () => (await second.inject({ url: `/v1/combination/get?whitelabel=other&platform=${encodeURIComponent('{"name":"tizen"}')}` })).json().data;
        expect((await ask()).matchedBy).toBe('latest');
        const pinned = await h.admin('GET', '/v1/admin/combination/add', { query: { whitelabelId: ids.other, platformId: ids.tizen, buildId: builds['other-tizen-1.20.34-1080p'], isPublished: true } });
        if (h.dialect === 'sqlite') {
          expect((await ask()).matchedBy).toBe('latest');
          await deviceSnapshot(second.engine)!.poll();
          expect((await ask()).matchedBy).toBe('published');
        } else {
          await expect.poll(async () => (await ask()).matchedBy, { timeout: 5000, interval: 50 }).toBe('published');
        }
        await h.admin('GET', '/v1/admin/combination/destroy', { query: { id: pinned.body.data.id } });
      } finally {
        await second.close();
      }
    });
  });

  describe('refusals', () => {
    it('answers 404 naming an unknown whitelabel or platform', async () => {
      const wl = await lookup(h, { whitelabel: 'nosuch', platform: 'tizen' });
      expect(wl.status).toBe(404);
      expect(wl.body).toEqual({ result: false, code: 'ERR_NOT_FOUND', message: 'No whitelabel named "nosuch"' });
      const platform = await lookup(h, { whitelabel: 'acme', platform: 'netcast' });
      expect(platform.status).toBe(404);
      expect(platform.body.message).toBe('No platform named "netcast"');
    });

    it('answers 404 saying what is missing when nothing matches', async () => {
      const none = await lookup(h, { appInstallId: 'unknown-tv' });
      expect(none.status).toBe(404);
      expect(none.body.message).toMatch(/No combination for device unknown-tv, IP 198\.51\.100\.1; the other rules need both a whitelabel and a platform/);
      const noBuild = await lookup(h, { whitelabel: 'other', platform: 'webos' });
      expect(noBuild.status).toBe(404);
      expect(noBuild.body.message).toMatch(/^No build for whitelabel other, platform webos, IP 198\.51\.100\.1: .*no available build within the platform's max version 01\.20\.33 and the whitelabel's max version 01\.20\.34$/);
    });

    it("tells every cache to keep none of its answers, the build and the 404 alike: each is one device's, by its address", async () => {
      const get = (query: Record<string, string>, token?: string) =>
        h.app.inject({ method: 'GET', url: LOOKUP, query, remoteAddress: '198.51.100.1', headers: token ? { authorization: `Bearer ${token}` } : {} });
      const found = await get({ whitelabel: 'acme', platform: JSON.stringify({ name: 'tizen' }) });
      const missing = await get({ whitelabel: 'nosuch', platform: JSON.stringify({ name: 'tizen' }) });
      expect([found.statusCode, missing.statusCode]).toEqual([200, 404]);
      for (const reply of [found, missing]) expect(reply.headers['cache-control']).toBe('private, no-store');
      // A staff call keeps its own rules.
      const staff = await h.app.inject({ method: 'GET', url: '/v1/admin/platform/get', headers: { authorization: `Bearer ${h.tokens.admin}` } });
      expect(staff.statusCode).toBe(200);
      expect(staff.headers['cache-control']).toBeUndefined();
    });

    it('answers 400 for malformed JSON in platform, an oversized value, an address that is not one, and an unknown parameter', async () => {
      const cases: [Record<string, string>, RegExp][] = [
        [{ whitelabel: 'acme', platform: '{"name":' }, /^Platform is not valid JSON/],
        [{ whitelabel: 'acme', platform: '"tizen"' }, /^Platform must be a JSON object/],
        [{ whitelabel: 'acme', platform: '{"nom":"tizen"}' }, /^Platform name is required/],
        [{ whitelabel: 'x'.repeat(10_000) }, /^Whitelabel name must be at most 64 characters long/],
        [{ appInstallId: 'a'.repeat(10_000) }, /^Installation GUID must be at most 200 characters long/],
        [{ ipAddress: '300.1.1.1' }, /^IP address must be an IPv4 address/],
        [{ ipAddress: 'localhost' }, /^IP address must be an IPv4 address/],
        [{ colour: 'red' }, /^colour is not an accepted field/],
      ];
      for (const [query, message] of cases) {
        const reply = await h.call('GET', LOOKUP, { query });
        expect(reply.status, JSON.stringify(query).slice(0, 60)).toBe(400);
        expect(reply.body.message).toMatch(message);
      }
    });

    it('treats an empty parameter as none, as a form that sends every field does', async () => {
      const reply = await lookup(h, { whitelabel: 'acme', platform: 'tizen', appInstallId: '', ipAddress: '', resolution: '' });
      expect(reply.status).toBe(200);
      expect(reply.body.data.matchedBy).toBe('published');
    });

    it('needs no token and ignores one that is sent, valid or not', async () => {
      for (const token of [undefined, h.tokens.customercare, 'not-a-token']) {
        const reply = await lookup(h, { whitelabel: 'acme', platform: 'tizen' }, '198.51.100.1', token);
        expect(reply.status).toBe(200);
        expect(reply.body.data.matchedBy).toBe('published');
      }
    });
  });
});
