// Builds: recorded from the build folders under DATA_DIR by reload, re-checked by update, filtered, and
// deleted one by one, all at once or by filter; never by a tester.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { forEachDialect, type Harness } from './harness.ts';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';

const names = (reply: { body: { data?: { rows: { name: string }[] } } }) => reply.body.data!.rows.map((r) => r.name).sort();

forEachDialect('builds', (h: Harness) => {
  const list = (query: Record<string, string | number> = {}, token = h.tokens.admin) =>
    h.call('GET', '/v1/admin/build/get', { query, token });

  it('records every build folder on reload, with its URLs served by the server', async () => {
    dropBuild(h.app.engine.dataDir, ['acme', 'tizen', '1.2.0', '1080p']);
    dropBuild(h.app.engine.dataDir, ['acme', 'webos', '1.2.0', '720p']);
    dropBuild(h.app.engine.dataDir, ['zeta', 'tizen', '1.3.0', '1080p']);
    writeFileSync(join(h.app.engine.dataDir, 'builds/zeta/tizen/1.3.0/1080p/build.json'), '{"maxVersion":"01.03.00"}');
    const reply = await h.admin('GET', '/v1/admin/build/reload');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ found: 3, added: 3 });
    const rows = (await list({ sortBy: 'name' })).body.data.rows;
    expect(rows[0]).toMatchObject({
      name: 'acme-tizen-1.2.0-1080p',
      ownWhitelabel: 'acme',
      ownPlatform: 'tizen',
      ownVersion: '1.2.0',
      ownResolution: '1080p',
      isAvailable: true,
      urls: ['/builds/acme/tizen/1.2.0/1080p/app.js', '/builds/acme/tizen/1.2.0/1080p/index.css'],
    });
    expect(rows[2].maxVersion).toBe('01.03.00');
    const file = await h.app.inject({ url: '/builds/acme/tizen/1.2.0/1080p/app.js' });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('app.js');
  });

  it('does not duplicate known builds on a second reload', async () => {
    const reply = await h.admin('GET', '/v1/admin/build/reload');
    expect(reply.body.data).toEqual({ found: 3, added: 0 });
    expect(await h.count('builds')).toBe(3);
  });

  it('marks a build unavailable on update when its files are gone, and available again when they are back', async () => {
    const dir = join(h.app.engine.dataDir, 'builds/acme/webos/1.2.0/720p');
    rmSync(join(dir, 'app.js'));
    const update = await h.admin('GET', '/v1/admin/build/update');
    expect(update.body.data).toEqual({ checked: 3, unavailable: 1 });
    const row = (await list({ ownPlatform: 'webos' })).body.data.rows[0];
    expect(row).toMatchObject({ name: 'acme-webos-1.2.0-720p', isAvailable: false });
    expect(row.lastCheckedDate).toBeTruthy();
    dropBuild(h.app.engine.dataDir, ['acme', 'webos', '1.2.0', '720p']);
    await h.admin('GET', '/v1/admin/build/update');
    expect((await list({ ownPlatform: 'webos' })).body.data.rows[0].isAvailable).toBe(true);
  });

  it('reloads the builds of one whitelabel by its id, and names a dangling id', async () => {
    const wl = await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('newwl') });
    dropBuild(h.app.engine.dataDir, ['newwl', 'tizen', '2.0.0', '1080p']);
    dropBuild(h.app.engine.dataDir, ['other', 'tizen', '2.0.0', '1080p']);
    const reply = await h.call('GET', '/v1/admin/build/reloadForWl', { token: h.tokens.tester, query: { whitelabelId: wl.body.data.id } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ found: 1, added: 1 });
    const dangling = await h.admin('GET', '/v1/admin/build/reloadForWl', { query: { whitelabelId: 999999 } });
    expect(dangling.status).toBe(400);
    expect(dangling.body.message).toBe('Whitelabel ID: there is no whitelabel with id 999999');
    const wrongType = await h.admin('GET', '/v1/admin/build/reloadForWl', { query: { whitelabelId: 'acme' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe('Whitelabel ID must be a whole number');
  });

  it('filters by whitelabel, platform and version', async () => {
    expect(names(await list({ ownWhitelabel: 'acme' }))).toEqual(['acme-tizen-1.2.0-1080p', 'acme-webos-1.2.0-720p']);
    expect(names(await list({ ownPlatform: 'tizen', ownVersion: '1.3.0' }))).toEqual(['zeta-tizen-1.3.0-1080p']);
    // The version is a prefix: "1.2" finds 1.2.0, whatever the case of a letter in it.
    expect(names(await list({ ownVersion: '1.2' }))).toEqual(['acme-tizen-1.2.0-1080p', 'acme-webos-1.2.0-720p']);
    expect(names(await list({ ownVersion: '1.' }))).toHaveLength(3);
    const unknown = await list({ ownColour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('ownColour is not an accepted field');
  });

  it('refuses every delete call from a tester, who may still list builds', async () => {
    expect((await list({}, h.tokens.tester)).status).toBe(200);
    const id = (await list()).body.data.rows[0].id;
    expect((await h.call('DELETE', '/v1/admin/build/destroy', { token: h.tokens.tester, query: { id } })).status).toBe(403);
    expect((await h.call('DELETE', '/v1/admin/build/destroyAll', { token: h.tokens.tester })).status).toBe(403);
    expect((await h.call('DELETE', '/v1/admin/build/destroyByFilter', { token: h.tokens.tester, query: { ownWhitelabel: 'acme' } })).status).toBe(403);
    expect(await h.count('builds')).toBe(4);
  });

  it('deletes by filter only the matching builds, and refuses an empty filter', async () => {
    const empty = await h.admin('DELETE', '/v1/admin/build/destroyByFilter', { query: { ownWhitelabel: '' } });
    expect(empty.status).toBe(400);
    expect(await h.count('builds')).toBe(4);
    const reply = await h.admin('DELETE', '/v1/admin/build/destroyByFilter', { query: { ownWhitelabel: 'acme', ownPlatform: 'tizen' } });
    expect(reply.body.data).toEqual({ count: 1, kept: { count: 0, by: [], records: [] } });
    expect(names(await list({ ownWhitelabel: 'acme' }))).toEqual(['acme-webos-1.2.0-720p']);
  });

  it('deletes one build by id, then all builds', async () => {
    const rows = (await list({ sortBy: 'name' })).body.data.rows;
    expect((await h.admin('DELETE', '/v1/admin/build/destroy', { query: { id: rows[0].id } })).status).toBe(200);
    expect((await h.admin('DELETE', '/v1/admin/build/destroy', { query: { id: 'x' } })).status).toBe(400);
    expect((await h.admin('DELETE', '/v1/admin/build/destroy', { query: { id: rows[0].id } })).status).toBe(404);
    const all = await h.admin('DELETE', '/v1/admin/build/destroyAll');
    expect(all.body.data).toEqual({ count: 2, kept: { count: 0, by: [], records: [] } });
    expect(await h.count('builds')).toBe(0);
  });
});

forEachDialect('bulk deletes of builds that combinations use', (h: Harness) => {
  const names = async () => (await h.admin('GET', '/v1/admin/build/get', { query: { pageSize: 1000, sortBy: 'name' } })).body.data.rows.map((r: { name: string }) => r.name);
  const idOf = async (name: string) =>
    (await h.admin('GET', '/v1/admin/build/get', { query: { pageSize: 1000 } })).body.data.rows.find((r: { name: string }) => r.name === name).id;
  const use = async (build: string) => {
    const reply = await h.admin('GET', '/v1/admin/combination/add', { query: { buildId: await idOf(build) } });
    expect(reply.status).toBe(200);
    return reply.body.data.id as number;
  };

  it('deletes every build no combination uses on Delete All, and names the ones it kept', async () => {
    for (const v of ['1.0.0', '1.1.0', '1.2.0']) dropBuild(h.app.engine.dataDir, ['acme', 'tizen', v, '1080p']);
    dropBuild(h.app.engine.dataDir, ['zeta', 'webos', '2.0.0', '720p']);
    await h.admin('GET', '/v1/admin/build/reload');
    await use('acme-tizen-1.1.0-1080p');
    await use('acme-tizen-1.1.0-1080p');
    await use('zeta-webos-2.0.0-720p');
    const reply = await h.admin('DELETE', '/v1/admin/build/destroyAll');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      count: 2,
      kept: {
        count: 2,
        by: ['combination'],
        records: [
          { id: await idOf('acme-tizen-1.1.0-1080p'), label: 'acme-tizen-1.1.0-1080p' },
          { id: await idOf('zeta-webos-2.0.0-720p'), label: 'zeta-webos-2.0.0-720p' },
        ],
      },
    });
    expect(await names()).toEqual(['acme-tizen-1.1.0-1080p', 'zeta-webos-2.0.0-720p']);
    // No combination points at a missing build.
    const combinations = (await h.admin('GET', '/v1/admin/combination/get', { query: { pageSize: 1000 } })).body.data.rows;
    expect(combinations.every((c: { build: { name: string } | null }) => c.build !== null)).toBe(true);
  });

  it('deletes by filter only the matching builds no combination uses', async () => {
    dropBuild(h.app.engine.dataDir, ['acme', 'tizen', '1.3.0', '1080p']);
    await h.admin('GET', '/v1/admin/build/reload');
    const reply = await h.admin('DELETE', '/v1/admin/build/destroyByFilter', { query: { ownWhitelabel: 'acme' } });
    expect(reply.body.data).toMatchObject({ count: 3, kept: { count: 1, by: ['combination'], records: [{ label: 'acme-tizen-1.1.0-1080p' }] } });
    expect(await names()).toEqual(['acme-tizen-1.1.0-1080p', 'zeta-webos-2.0.0-720p']);
  });

  it('deletes a build once the combinations that used it are gone', async () => {
    const combinations = (await h.admin('GET', '/v1/admin/combination/get', { query: { pageSize: 1000 } })).body.data.rows;
    for (const c of combinations.filter((c: { build: { name: string } }) => c.build.name === 'zeta-webos-2.0.0-720p')) {
      await h.admin('GET', '/v1/admin/combination/destroy', { query: { id: c.id } });
    }
    const reply = await h.admin('DELETE', '/v1/admin/build/destroyAll');
    expect(reply.body.data).toMatchObject({ count: 1, kept: { count: 1 } });
    expect(await names()).toEqual(['acme-tizen-1.1.0-1080p']);
  });
});

forEachDialect('expected files of a build', (h: Harness) => {
  const row = async (name: string) =>
    (await h.admin('GET', '/v1/admin/build/get', { query: { pageSize: 1000 } })).body.data.rows.find((r: { name: string }) => r.name === name);

  it('keeps a build with a lost file unavailable after Update, Reload and Update again', async () => {
    const dir = dropBuild(h.app.engine.dataDir, ['acme', 'tizen', '3.0.0', '1080p']);
    await h.admin('GET', '/v1/admin/build/reload');
    expect(await row('acme-tizen-3.0.0-1080p')).toMatchObject({ isAvailable: true });
    rmSync(join(dir, 'index.css'));
    await h.admin('GET', '/v1/admin/build/update');
    expect(await row('acme-tizen-3.0.0-1080p')).toMatchObject({ isAvailable: false });
    await h.admin('GET', '/v1/admin/build/reload');
    const reloaded = await row('acme-tizen-3.0.0-1080p');
    expect(reloaded).toMatchObject({ isAvailable: false });
    expect(reloaded.urls).toEqual(['/builds/acme/tizen/3.0.0/1080p/app.js', '/builds/acme/tizen/3.0.0/1080p/index.css']);
    await h.admin('GET', '/v1/admin/build/update');
    expect(await row('acme-tizen-3.0.0-1080p')).toMatchObject({ isAvailable: false });
    writeFileSync(join(dir, 'index.css'), 'body {}');
    await h.admin('GET', '/v1/admin/build/update');
    expect(await row('acme-tizen-3.0.0-1080p')).toMatchObject({ isAvailable: true });
  });

  it('takes the expected files from build.json, so a build missing one is unavailable from its first reload', async () => {
    const dir = dropBuild(h.app.engine.dataDir, ['acme', 'webos', '3.0.0', '1080p'], ['app.js']);
    writeFileSync(join(dir, 'build.json'), JSON.stringify({ maxVersion: '03.00.00', files: ['app.js', 'vendor.js'] }));
    writeFileSync(join(dir, 'notes.txt'), 'not part of the build');
    await h.admin('GET', '/v1/admin/build/reload');
    expect(await row('acme-webos-3.0.0-1080p')).toMatchObject({
      isAvailable: false,
      maxVersion: '03.00.00',
      urls: ['/builds/acme/webos/3.0.0/1080p/app.js', '/builds/acme/webos/3.0.0/1080p/vendor.js'],
    });
    writeFileSync(join(dir, 'vendor.js'), '//');
    await h.admin('GET', '/v1/admin/build/reload');
    expect(await row('acme-webos-3.0.0-1080p')).toMatchObject({ isAvailable: true });
  });

  it('never drops a file recorded before, even when build.json no longer lists it', async () => {
    const dir = join(h.app.engine.dataDir, 'builds/acme/webos/3.0.0/1080p');
    writeFileSync(join(dir, 'build.json'), JSON.stringify({ files: ['app.js'] }));
    rmSync(join(dir, 'vendor.js'));
    await h.admin('GET', '/v1/admin/build/reload');
    expect(await row('acme-webos-3.0.0-1080p')).toMatchObject({
      isAvailable: false,
      urls: ['/builds/acme/webos/3.0.0/1080p/app.js', '/builds/acme/webos/3.0.0/1080p/vendor.js'],
    });
  });
});
