// The change feed: caches of the tables hear of a write only after it committed, and of every entity it wrote.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Change } from '../../server/crud/changes.ts';
import { forEachDialect } from './harness.ts';

forEachDialect('change feed', (h) => {
  let heard: Change[] = [];
  let stop = () => {};
  beforeEach(() => {
    heard = [];
    stop = h.app.engine.changes.on((change) => heard.push(change));
  });
  afterEach(() => stop());

  it('announces the entity of a committed add, edit and delete', async () => {
    const added = await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'feedOS', maxVersion: '1.2.3' } });
    await h.admin('GET', '/v1/admin/platform/edit', { query: { id: added.body.data.id, name: 'feedOS2' } });
    await h.admin('GET', '/v1/admin/platform/destroy', { query: { id: added.body.data.id } });
    // Each names the record and who wrote it, for live lists and open edit forms.
    const id = added.body.data.id;
    const by = 'admin@test.io';
    expect(heard).toEqual([
      { entity: 'platform', path: '/v1/admin/platform/add', ids: [id], by, at: expect.any(String) },
      { entity: 'platform', path: '/v1/admin/platform/edit', ids: [id], by, at: expect.any(String) },
      { entity: 'platform', path: '/v1/admin/platform/destroy', ids: [id], by, at: expect.any(String) },
    ]);
  });

  it('stays silent for a refused write and for a read', async () => {
    await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'badOS', maxVersion: 'not-a-version' } });
    await h.call('GET', '/v1/admin/platform/add', { token: h.tokens.customercare, query: { name: 'ccOS', maxVersion: '1.0.0' } });
    await h.admin('GET', '/v1/admin/platform/get');
    expect(heard).toEqual([]);
  });

  it('names the entity a custom handler writes besides its own, and nothing when it refuses', async () => {
    await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'nobody' } });
    expect(heard).toEqual([]);
    const db = h.app.engine.db;
    const wl = await db.insertInto('whitelabels').values({ name: 'feedwl', feUrl: 'https://fe.example', deployConfiguration: '{}' }).returning('id').executeTakeFirstOrThrow();
    const ex = await db
      .insertInto('experiments')
      .values({ whitelabelId: wl.id, platformIds: '[1]', recordsCount: 1, versionsDeploymentSettings: '[{"count":1}]', createdAt: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('experiment_users').values({ abtestingId: ex.id, appInstallId: 'feed-device' }).execute();
    const removed = await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'feed-device' } });
    expect(removed.body.data).toEqual({ count: 1 });
    const path = '/v1/admin/abtesting/info-for-testing/delete-user';
    expect(heard.map(({ entity, path }) => ({ entity, path }))).toEqual([{ entity: 'experiment', path }, { entity: 'experimentUser', path }]);
  });
});
