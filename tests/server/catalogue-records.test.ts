// App versions on test, installations and tech support: add, edit, delete at the SPEC's methods and paths,
// whitelabel (and platform) names on every row, and bad input refused with nothing stored.
import { expect, it } from 'vitest';
import { whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect, type Harness } from './harness.ts';

forEachDialect('app versions on test, installations, tech support', (h: Harness) => {
  const ids = { wl: 0, platform: 0 };

  it('adds, edits and deletes an app version on test with GET calls, rows carrying the names', async () => {
    ids.wl = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('acme') })).body.data.id;
    ids.platform = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'webos', maxVersion: '02.00.00' } })).body.data.id;
    const added = await h.admin('GET', '/v1/admin/versionsInStoreOnTest/add', {
      query: { whitelabelId: ids.wl, platformId: ids.platform, appVersion: '1.20.34' },
    });
    expect(added.body.data).toMatchObject({ appVersion: '1.20.34', isPublished: false, whitelabel: { name: 'acme' }, platform: { name: 'webos' } });
    const id = added.body.data.id;
    const edited = await h.admin('GET', '/v1/admin/versionsInStoreOnTest/edit', { query: { id, isPublished: true } });
    expect(edited.body.data.isPublished).toBe(true);
    expect((await h.admin('GET', '/v1/admin/versionsInStoreOnTest/get')).body.data.rows[0]).toMatchObject({ id, isPublished: true });
    expect((await h.admin('GET', '/v1/admin/versionsInStoreOnTest/remove', { query: { id } })).status).toBe(200);
    expect(await h.count('app_versions_on_test')).toBe(0);
  });

  const badVersions: [string, Record<string, string | number>, string][] = [
    ['a missing version', { whitelabelId: 0, platformId: 0 }, 'App version is required'],
    ['a version that is not digits and dots', { appVersion: 'beta' }, 'App version is not in the expected form: digits and dots, e.g. 1.20.34'],
    ['a published flag that is not a boolean', { appVersion: '1.0', isPublished: 'maybe' }, 'Published must be true or false'],
    ['a dangling whitelabel id', { appVersion: '1.0', whitelabelId: 424242 }, 'Whitelabel ID: there is no whitelabel with id 424242'],
    ['a dangling platform id', { appVersion: '1.0', platformId: 424242 }, 'Platform ID: there is no platform with id 424242'],
    ['an unknown field', { appVersion: '1.0', store: 'lg' }, 'store is not an accepted field'],
  ];
  for (const [what, change, message] of badVersions) {
    it(`refuses an app version on test with ${what}`, async () => {
      const reply = await h.admin('GET', '/v1/admin/versionsInStoreOnTest/add', {
        query: { whitelabelId: ids.wl, platformId: ids.platform, ...change },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toContain(message);
      expect(await h.count('app_versions_on_test')).toBe(0);
    });
  }

  it('adds an installation with GET add (name and userId), edits and deletes it', async () => {
    const guid = '6f1c2a9e-8a43-4d1e-9a57-0c7b8f1d2e3a';
    const added = await h.admin('GET', '/v1/admin/installation/add', { query: { name: guid, userId: 'user-17', whitelabelId: ids.wl } });
    expect(added.body.data).toMatchObject({ name: guid, userId: 'user-17', whitelabel: { name: 'acme' } });
    const id = added.body.data.id;
    expect((await h.admin('GET', '/v1/admin/installation/add', { query: { name: guid, userId: 'u' } })).body.message).toBe('Installation GUID is already taken');
    const edited = await h.admin('GET', '/v1/admin/installation/edit', { query: { id, userId: 'user-18', whitelabelId: '' } });
    expect(edited.body.data).toMatchObject({ userId: 'user-18', whitelabelId: null, whitelabel: null });
    expect((await h.admin('GET', '/v1/admin/installation/destroy', { query: { id } })).status).toBe(200);
    expect(await h.count('installations')).toBe(0);
  });

  it('refuses an installation without a user id, with a dangling whitelabel or a wrong type', async () => {
    expect((await h.admin('GET', '/v1/admin/installation/add', { query: { name: 'g' } })).body.message).toBe('User ID is required');
    expect((await h.admin('GET', '/v1/admin/installation/add', { query: { name: 'g', userId: 'u', whitelabelId: 77777 } })).body.message).toBe(
      'Whitelabel ID: there is no whitelabel with id 77777',
    );
    expect((await h.admin('GET', '/v1/admin/installation/add', { query: { name: 'g', userId: 'u', whitelabelId: 'acme' } })).body.message).toBe(
      'Whitelabel ID must be a whole number or empty',
    );
    expect(await h.count('installations')).toBe(0);
  });

  it('adds tech support with POST, updates it with PUT, filters it and removes it with DELETE', async () => {
    const added = await h.admin('POST', '/v1/admin/tech-support/add', { body: { whitelabelId: ids.wl, url: 'https://help.acme.tv/' } });
    expect(added.body.data).toMatchObject({ url: 'https://help.acme.tv/', whitelabel: { name: 'acme' } });
    const id = added.body.data.id;
    await h.admin('POST', '/v1/admin/tech-support/add', { body: { whitelabelId: ids.wl, url: 'https://other.example.com/' } });
    const updated = await h.admin('PUT', '/v1/admin/tech-support/update', { body: { id, whitelabelId: ids.wl, url: 'https://support.acme.tv/' } });
    expect(updated.body.data.url).toBe('https://support.acme.tv/');
    const get = (query: Record<string, string | number>) => h.admin('GET', '/v1/admin/tech-support/get', { query });
    expect((await get({ url: 'acme' })).body.data.count).toBe(1);
    expect((await get({ id })).body.data.rows[0].url).toBe('https://support.acme.tv/');
    expect((await get({ whitelabelId: ids.wl, pageSize: 5 })).body.data.count).toBe(2);
    expect((await h.admin('DELETE', '/v1/admin/tech-support/remove', { query: { id } })).status).toBe(200);
    expect(await h.count('tech_support')).toBe(1);
  });

  it('refuses tech support with a bad URL, a string id, a dangling whitelabel or an unknown field', async () => {
    const before = await h.count('tech_support');
    const add = (body: Record<string, unknown>) => h.admin('POST', '/v1/admin/tech-support/add', { body });
    expect((await add({ whitelabelId: ids.wl, url: 'not a url' })).body.message).toBe('URL must be a URL, like https://example.com/');
    expect((await add({ whitelabelId: String(ids.wl), url: 'https://x.io' })).body.message).toBe('Whitelabel ID must be a whole number');
    expect((await add({ whitelabelId: 31337, url: 'https://x.io' })).body.message).toBe('Whitelabel ID: there is no whitelabel with id 31337');
    expect((await add({ whitelabelId: ids.wl, url: 'https://x.io', phone: '1' })).body.message).toBe('phone is not an accepted field');
    expect(await h.count('tech_support')).toBe(before);
  });

  it('keeps a whitelabel that records still use', async () => {
    const reply = await h.admin('GET', '/v1/admin/whitelabel/destroy', { query: { id: ids.wl, name: 'acme' } });
    expect(reply.status).toBe(409);
    expect((await h.app.inject({ url: '/whitelabels/acme_1280x720.png' })).statusCode).toBe(200);
  });
});
