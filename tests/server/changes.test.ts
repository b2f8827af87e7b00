// The change feed: caches of the tables hear of a write only after it committed, and of every entity it wrote.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/core/changes.ts';
import { CHANGES_CHANNEL } from '../../server/plugins/change-bridge.ts';
import { forEachDialect, startApp } from './harness.ts';

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

describe('changes between processes on PostgreSQL', () => {
  it('sends the changes of one turn together, in NOTIFYs under 8,000 bytes, and a listener hears every one', async () => {
    const { app, databaseUrl, cleanup } = await startApp('postgres');
    const listener = new pg.Client({ connectionString: databaseUrl });
    try {
      await listener.connect();
      const payloads: string[] = [];
      listener.on('notification', (message) => payloads.push(message.payload ?? ''));
      await listener.query(`listen ${CHANGES_CHANNEL}`);
      for (let i = 0; i < 300; i++) app.engine.changes.emit({ entity: 'appinfo', path: '/v1/appinfo/report', ids: [i] });
      // One with ids too many for a payload goes alone, its ids dropped (a listener reloads that entity whole).
      app.engine.changes.emit({ entity: 'builds', path: '/v1/admin/build/reload', ids: Array.from({ length: 5000 }, (_, i) => i) });
      for (const end = Date.now() + 5000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
        const heard = payloads.flatMap((p) => (JSON.parse(p) as { changes: { entity: string }[] }).changes);
        if (heard.length === 301) break;
      }
      const heard = payloads.flatMap((p) => (JSON.parse(p) as { changes: { entity: string; ids?: number[] }[] }).changes);
      expect(heard.filter((c) => c.entity === 'appinfo').map((c) => c.ids![0])).toEqual(Array.from({ length: 300 }, (_, i) => i));
      expect(heard.filter((c) => c.entity === 'builds')).toEqual([{ entity: 'builds', path: '/v1/admin/build/reload' }]);
      expect(payloads.length).toBeLessThan(10);
      for (const payload of payloads) expect(payload.length).toBeLessThan(8000);
    } finally {
      await listener.end();
      await app.close();
      await cleanup();
    }
  });
});
