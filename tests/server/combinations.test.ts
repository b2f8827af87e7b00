// Combinations and the office IP: display names from one query, the five filters, custom URLs as a JSON list
// of strings, build ID required, dangling ids named, and a tester's IP forced to the office IP.
import { expect, it } from 'vitest';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect, type Harness } from './harness.ts';

forEachDialect('combinations', (h: Harness) => {
  const ids = { wl: 0, platform: 0, build: 0 };
  const add = (query: Record<string, string | number | boolean>, token = h.tokens.admin) =>
    h.call('GET', '/v1/admin/combination/add', { query, token });
  const list = (query: Record<string, string | number> = {}) => h.admin('GET', '/v1/admin/combination/get', { query });

  it('starts without an office IP, which a tester may read but not set', async () => {
    const reply = await h.call('GET', '/v1/admin/officeIp/get', { token: h.tokens.tester });
    expect(reply.body).toEqual({ result: true, data: { ip: null } });
    expect((await h.call('POST', '/v1/admin/officeIp/update', { token: h.tokens.tester, body: { ip: '10.0.0.1' } })).status).toBe(403);
  });

  it('refuses a tester\'s new combination while no office IP is known', async () => {
    ids.wl = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('acme') })).body.data.id;
    ids.platform = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'tizen', maxVersion: '01.00.00' } })).body.data.id;
    dropBuild(h.app.engine.dataDir, ['acme', 'tizen', '1.0.0', '1080p']);
    await h.admin('GET', '/v1/admin/build/reload');
    ids.build = (await h.admin('GET', '/v1/admin/build/get')).body.data.rows[0].id;
    const reply = await add({ buildId: ids.build, whitelabelId: ids.wl }, h.tokens.tester);
    expect(reply.status).toBe(409);
    expect(reply.body.message).toContain('no office IP is set');
    expect(await h.count('combinations')).toBe(0);
  });

  it('sets and reads the office IP, refusing an address that is not IPv4', async () => {
    const bad = await h.admin('POST', '/v1/admin/officeIp/update', { body: { ip: '300.1.1.1' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Office IP must be an IPv4 address a.b.c.d (each part 0-255)');
    expect((await h.admin('POST', '/v1/admin/officeIp/update', { body: { ip: '10.0.0.1', extra: 1 } })).body.message).toBe('extra is not an accepted field');
    expect((await h.admin('POST', '/v1/admin/officeIp/update', { body: { ip: '10.0.0.1' } })).body.data).toEqual({ ip: '10.0.0.1' });
    expect((await h.call('POST', '/v1/admin/officeIp/update', { token: h.tokens.developer, body: { ip: '192.168.7.7' } })).status).toBe(200);
    expect((await h.call('GET', '/v1/admin/officeIp/get', { token: h.tokens.tester })).body.data).toEqual({ ip: '192.168.7.7' });
  });

  it('adds a combination with its whitelabel, platform and build names on the row', async () => {
    const reply = await add({
      whitelabelId: ids.wl,
      platformId: ids.platform,
      buildId: ids.build,
      ipAddress: '1.2.3.4',
      customBuildUrls: JSON.stringify(['https://cdn.example.com/app.js']),
      isPublished: true,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      whitelabel: { name: 'acme' },
      platform: { name: 'tizen' },
      build: { name: 'acme-tizen-1.0.0-1080p' },
      ipAddress: '1.2.3.4',
      customBuildUrls: ['https://cdn.example.com/app.js'],
      isPublished: true,
      forceLocalBuild: false,
    });
  });

  it('forces the office IP into a tester\'s combination on add and on edit, whatever the tester sends', async () => {
    const added = await add({ buildId: ids.build, whitelabelId: ids.wl, ipAddress: '8.8.8.8', appInstallId: 'tv-1' }, h.tokens.tester);
    expect(added.status).toBe(200);
    expect(added.body.data.ipAddress).toBe('192.168.7.7');
    const adminRow = (await list({ ipAddress: '1.2.3.4' })).body.data.rows[0];
    const edited = await h.call('GET', '/v1/admin/combination/edit', {
      token: h.tokens.tester,
      query: { id: adminRow.id, ipAddress: '9.9.9.9', description: 'tester edit' },
    });
    expect(edited.body.data).toMatchObject({ ipAddress: '192.168.7.7', description: 'tester edit' });
    const byAdmin = await h.admin('GET', '/v1/admin/combination/edit', { query: { id: adminRow.id, ipAddress: '5.5.5.5' } });
    expect(byAdmin.body.data.ipAddress).toBe('5.5.5.5');
  });

  it('filters by appInstallId, platformId, ipAddress, whitelabelId and buildId', async () => {
    expect((await list({ appInstallId: 'tv' })).body.data.count).toBe(1);
    expect((await list({ platformId: ids.platform })).body.data.count).toBe(1);
    expect((await list({ ipAddress: '192.168' })).body.data.count).toBe(1);
    expect((await list({ whitelabelId: ids.wl })).body.data.count).toBe(2);
    expect((await list({ buildId: ids.build, whitelabelId: ids.wl })).body.data.count).toBe(2);
    expect((await list({ buildId: 'abc' })).status).toBe(400);
  });

  const bad: [string, Record<string, string | number | boolean>, string][] = [
    ['a build ID that is not a number', { buildId: 'latest' }, 'Build ID must be a whole number'],
    ['custom URLs that are not JSON', { customBuildUrls: '[https://x' }, 'Custom build URLs is not valid JSON'],
    ['custom URLs that are not a list of strings', { customBuildUrls: '[1,2]' }, 'Custom build URLs, item 1, must be text'],
    ['custom URLs that are an object', { customBuildUrls: '{"a":"b"}' }, 'Custom build URLs must be a list'],
    ['an IP that is not an address', { ipAddress: 'office' }, 'IP address must be an IPv4 address a.b.c.d (each part 0-255)'],
    ['an unknown field', { colour: 'red' }, 'colour is not an accepted field'],
    ['a read-only field', { createdAt: '2020-01-01T00:00:00Z' }, 'Created is read-only'],
  ];
  for (const [what, change, message] of bad) {
    it(`refuses ${what} with 400 and stores nothing`, async () => {
      const before = await h.count('combinations');
      const reply = await add({ buildId: ids.build, ...change });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toContain(message);
      expect(await h.count('combinations')).toBe(before);
    });
  }

  it('refuses a combination without a build ID', async () => {
    const reply = await add({ whitelabelId: ids.wl, platformId: ids.platform });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('Build ID is required');
  });

  it('names a dangling whitelabel, platform or build id', async () => {
    for (const [field, message] of [
      ['whitelabelId', 'Whitelabel ID: there is no whitelabel with id 999999'],
      ['platformId', 'Platform ID: there is no platform with id 999999'],
      ['buildId', 'Build ID: there is no build with id 999999'],
    ]) {
      const reply = await add({ buildId: ids.build, [field]: 999999 });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(message);
    }
  });

  it('keeps a build that a combination uses, and deletes the combination', async () => {
    const kept = await h.admin('DELETE', '/v1/admin/build/destroy', { query: { id: ids.build } });
    expect(kept.status).toBe(409);
    const id = (await list()).body.data.rows[0].id;
    expect((await h.call('GET', '/v1/admin/combination/destroy', { token: h.tokens.tester, query: { id } })).status).toBe(200);
    expect((await list()).body.data.count).toBe(1);
  });

  it('lets a tester list the platforms and whitelabels the combination form looks up', async () => {
    const platforms = await h.call('GET', '/v1/admin/platform/get', { token: h.tokens.tester, query: { pageSize: 1000 } });
    expect(platforms.body.data.rows.map((r: { name: string }) => r.name)).toEqual(['tizen']);
    expect((await h.call('GET', '/v1/admin/platform/add', { token: h.tokens.tester, query: { name: 'x', maxVersion: '01.00.00' } })).status).toBe(403);
  });
});
