// Paging at scale (issue 14): the `after` cursor a list answers as `next`, deep offsets, a relation's field sort and
// contains filters read through their FTS table give exactly the rows and order of ORDER BY field, id LIMIT OFFSET
// over the whole join, nulls and ties included, on both dialects.
import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../server/app.ts';
import { ADMIN, forEachDialect, startApp } from './harness.ts';

/** More than the 500 rows past which an offset page finds its ids first. */
const ROWS = 640;
const SIZE = 50;

interface ListData {
  rows: { id: number }[];
  count: number;
  countCapped?: boolean;
  next?: string;
}

forEachDialect(
  'list paging by cursor',
  (h) => {
    const db = () => h.app.engine.db;
    const list = async (path: string, query: Record<string, string | number>) => {
      const reply = await h.admin('GET', path, { query });
      expect(reply.status, reply.raw).toBe(200);
      return reply.body.data as ListData;
    };

    /** Every id of the list in its order, page after page through `next`, checking each page against its offset page. */
    const walk = async (path: string, query: Record<string, string | number>) => {
      const ids: number[] = [];
      let after: string | undefined;
      for (let page = 1; page < 100; page++) {
        const byCursor = await list(path, { ...query, page, pageSize: SIZE, ...(after ? { after } : {}) });
        const byOffset = await list(path, { ...query, page, pageSize: SIZE });
        expect(byCursor.rows.map((r) => r.id), `page ${page}`).toEqual(byOffset.rows.map((r) => r.id));
        expect({ count: byCursor.count, countCapped: byCursor.countCapped }).toEqual({ count: byOffset.count, countCapped: byOffset.countCapped });
        ids.push(...byCursor.rows.map((r) => r.id));
        if (!byCursor.next) {
          expect(byCursor.rows.length).toBeLessThan(SIZE);
          break;
        }
        expect(byCursor.rows).toHaveLength(SIZE);
        after = byCursor.next;
      }
      return ids;
    };

    it('pages app infos by cursor exactly as by offset, for every sortable column in both directions, ties and nulls included', async () => {
      await db().deleteFrom('app_infos').execute();
      // Few distinct values, many ties, nulls in every nullable column.
      const rows = Array.from({ length: ROWS }, (_, i) => ({
        appInstallId: `k-${(i * 7919) % 97}-${i}`,
        email: i % 9 === 0 ? null : `user${(i * 31) % 13}@example.com`,
        login: i % 5 === 0 ? null : `login-${(i * 17) % 4}`,
        version: i % 11 === 0 ? null : `1.${i % 3}.0`,
        whitelabel: i % 4 === 0 ? null : ['aurora', 'Nordtv', 'kinomax'][i % 3],
        platform: i % 2 ? null : 'tizen',
        active: 'yes',
      }));
      for (let i = 0; i < rows.length; i += 200) await db().insertInto('app_infos').values(rows.slice(i, i + 200)).execute();
      const manifest = h.app.engine.manifests.find((m) => m.entity === 'appinfo')!;
      for (const field of manifest.list!.sortable!) {
        for (const direction of ['asc', 'desc'] as const) {
          const expected = await db().selectFrom('app_infos as t').select('t.id').orderBy(`t.${field}`, direction).orderBy('t.id', direction).execute();
          const ids = await walk('/v1/admin/appinfo/get', { sortBy: field, sortOrder: direction });
          expect(ids, `${field} ${direction}`).toEqual(expected.map((r) => r.id));
        }
      }
      // The default order (id desc) too, and a deep offset page alone (page 12: rows 551-600, ids found first).
      const byId = await db().selectFrom('app_infos').select('id').orderBy('id', 'desc').execute();
      expect(await walk('/v1/admin/appinfo/get', {})).toEqual(byId.map((r) => r.id));
      const deep = await list('/v1/admin/appinfo/get', { page: 12, pageSize: SIZE, sortBy: 'login', sortOrder: 'desc' });
      const expected = await db().selectFrom('app_infos').select('id').orderBy('login', 'desc').orderBy('id', 'desc').limit(SIZE).offset(11 * SIZE).execute();
      expect(deep.rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    });

    it('pages contains filters by cursor and offset with the rows and count of a scan', async () => {
      const like = h.dialect === 'postgres' ? 'ilike' : 'like';
      for (const [param, value] of [
        ['email', 'USER1'],
        ['login', 'login-2'],
        ['appInstallId', 'k-1'],
      ]) {
        const scanned = await db()
          .selectFrom('app_infos')
          .select('id')
          .where(sql<boolean>`${sql.ref(param)} ${sql.raw(like)} ${`%${value}%`}`)
          .orderBy('id', 'desc')
          .execute();
        expect(scanned.length, value).toBeGreaterThan(SIZE);
        expect(await walk('/v1/admin/appinfo/get', { [param]: value }), value).toEqual(scanned.map((r) => r.id));
        const first = await list('/v1/admin/appinfo/get', { [param]: value, pageSize: SIZE });
        expect(first.count).toBe(scanned.length);
      }
      // Two contains filters at once, sorted by another column.
      const both = await db()
        .selectFrom('app_infos')
        .select('id')
        .where(sql<boolean>`email ${sql.raw(like)} ${'%user%'} and login ${sql.raw(like)} ${'%login-1%'}`)
        .orderBy('version', 'desc')
        .orderBy('id', 'desc')
        .execute();
      expect(await walk('/v1/admin/appinfo/get', { email: 'user', login: 'login-1', sortBy: 'version', sortOrder: 'desc' })).toEqual(both.map((r) => r.id));
    });

    it("sorts by a relation's field exactly as the join did, rows without one where the database puts nulls", async () => {
      await db().deleteFrom('installations').execute();
      const now = new Date().toISOString();
      const names = ['zeta', 'Alpha', 'beta', 'alpha2'];
      await db()
        .insertInto('whitelabels')
        .values(names.map((name) => ({ name, feUrl: `https://${name}.example.com/`, deployConfiguration: '{}', imageHD: 'a.png', imageFHD: 'b.png', cssConfig: 'c.css', createdAt: now, updatedAt: now })))
        .execute();
      const wl = await db().selectFrom('whitelabels').select(['id', 'name']).where('name', 'in', names).execute();
      const ids = wl.map((w) => w.id);
      // Rows of one whitelabel (alpha2) never come, so a group can be empty.
      const rows = Array.from({ length: ROWS }, (_, i) => ({
        name: `tv-${i}`,
        userId: `u${i % 7}`,
        whitelabelId: i % 5 === 0 ? null : ids.filter((id) => wl.find((w) => w.id === id)!.name !== 'alpha2')[(i * 13) % 3],
        // Timestamps with ties (a cursor carries PostgreSQL's as text).
        createdAt: new Date(Date.parse('2025-03-01T10:00:00Z') + (i % 37) * 1000).toISOString(),
        updatedAt: new Date(Date.parse('2025-03-01T10:00:00Z') - (i % 23) * 60_000).toISOString(),
      }));
      for (let i = 0; i < rows.length; i += 200) await db().insertInto('installations').values(rows.slice(i, i + 200)).execute();
      for (const direction of ['asc', 'desc'] as const) {
        const expected = await db()
          .selectFrom('installations as t')
          .leftJoin('whitelabels as w', 'w.id', 't.whitelabelId')
          .select('t.id')
          .orderBy('w.name', direction)
          .orderBy('t.id', direction)
          .execute();
        expect(await walk('/v1/admin/installation/get', { sortBy: 'whitelabel.name', sortOrder: direction }), direction).toEqual(expected.map((r) => r.id));
        for (const field of ['createdAt', 'updatedAt', 'name']) {
          const own = await db().selectFrom('installations as t').select('t.id').orderBy(`t.${field}`, direction).orderBy('t.id', direction).execute();
          expect(await walk('/v1/admin/installation/get', { sortBy: field, sortOrder: direction }), `${field} ${direction}`).toEqual(own.map((r) => r.id));
        }
        // An offset page in the middle of a group and one across groups, without a cursor; then jumps back and forth
        // and the same page again, from the places read before.
        for (const page of [3, 9, 12, 12, 2, 10, 10, 13, 1, 5]) {
          const byOffset = await list('/v1/admin/installation/get', { sortBy: 'whitelabel.name', sortOrder: direction, page, pageSize: SIZE });
          expect(byOffset.rows.map((r) => r.id), `page ${page}`).toEqual(expected.slice((page - 1) * SIZE, page * SIZE).map((r) => r.id));
        }
      }
    });

    it('uses a cursor only for the order and filters it was answered for, and refuses one it did not answer', async () => {
      const first = await list('/v1/admin/appinfo/get', { sortBy: 'email', sortOrder: 'asc', pageSize: SIZE });
      expect(first.next).toEqual(expect.any(String));
      // Another order: the page number applies.
      const other = await list('/v1/admin/appinfo/get', { sortBy: 'login', sortOrder: 'asc', page: 2, pageSize: SIZE, after: first.next! });
      const plain = await list('/v1/admin/appinfo/get', { sortBy: 'login', sortOrder: 'asc', page: 2, pageSize: SIZE });
      expect(other.rows.map((r) => r.id)).toEqual(plain.rows.map((r) => r.id));
      const filtered = await list('/v1/admin/appinfo/get', { sortBy: 'email', sortOrder: 'asc', page: 2, pageSize: SIZE, after: first.next!, login: 'login-1' });
      const filteredPlain = await list('/v1/admin/appinfo/get', { sortBy: 'email', sortOrder: 'asc', page: 2, pageSize: SIZE, login: 'login-1' });
      expect(filtered.rows.map((r) => r.id)).toEqual(filteredPlain.rows.map((r) => r.id));
      const bad = await h.admin('GET', '/v1/admin/appinfo/get', { query: { page: 2, after: 'not-a-cursor' } });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/after/);
    });

    it('answers deep pages by number, jumping back and forth, from the places it read before, and after a write as the list is now', async () => {
      // Emptied through the API, so the server forgets the places the earlier tests' lists read; the rows then go
      // straight into the table, before any of this test's lists is read.
      expect((await h.admin('GET', '/v1/admin/appinfo/removeAll')).status).toBe(200);
      const rows = Array.from({ length: ROWS }, (_, i) => ({
        appInstallId: `jump-${i}`,
        login: i % 7 === 0 ? null : `login-${(i * 13) % 5}`,
        email: `jump${i}@example.com`,
        active: 'yes',
      }));
      for (let i = 0; i < rows.length; i += 200) await db().insertInto('app_infos').values(rows.slice(i, i + 200)).execute();
      const pageSize = 20;
      // Pages 27-32 of 20 start past the 500 rows from which a page by number reads its ids first.
      const jumps = [30, 28, 31, 32, 27, 30, 29, 33];
      for (const order of [{}, { sortBy: 'login', sortOrder: 'asc' }, { sortBy: 'login', sortOrder: 'desc' }, { email: 'jump1' }] as Record<string, string>[]) {
        const truth = async (page: number) => {
          let query = db().selectFrom('app_infos').select('id');
          if (order.email) query = query.where('email', 'like', `%${order.email}%`);
          if (order.sortBy) query = query.orderBy(order.sortBy as 'login', order.sortOrder as 'asc').orderBy('id', order.sortOrder as 'asc');
          else query = query.orderBy('id', 'desc');
          return (await query.limit(pageSize).offset((page - 1) * pageSize).execute()).map((r) => r.id);
        };
        for (const page of jumps) {
          const answer = await list('/v1/admin/appinfo/get', { ...order, page, pageSize });
          expect(answer.rows.map((r) => r.id), `${JSON.stringify(order)} page ${page}`).toEqual(await truth(page));
        }
        // A write through the API before those pages: the same page by number now shows the rows that moved up.
        const [firstRow] = (await list('/v1/admin/appinfo/get', { ...order, page: 1, pageSize })).rows;
        expect((await h.admin('GET', '/v1/admin/appinfo/remove', { query: { id: firstRow.id } })).status).toBe(200);
        for (const page of [30, 27]) {
          const answer = await list('/v1/admin/appinfo/get', { ...order, page, pageSize });
          expect(answer.rows.map((r) => r.id), `${JSON.stringify(order)} page ${page} after a delete`).toEqual(await truth(page));
        }
      }
    });

    it('keeps an exact count of many rows across pages and forgets it when a write through the API changes the list', async () => {
      await db().deleteFrom('app_infos').execute();
      const rows = Array.from({ length: 1100 }, (_, i) => ({ appInstallId: `kept-${i}`, email: `kept${i}@example.com`, active: 'yes' }));
      for (let i = 0; i < rows.length; i += 200) await db().insertInto('app_infos').values(rows.slice(i, i + 200)).execute();
      const first = await list('/v1/admin/appinfo/get', { email: 'kept', pageSize: SIZE });
      expect(first.count).toBe(1100);
      expect(first.countCapped).toBeUndefined();
      const second = await list('/v1/admin/appinfo/get', { email: 'kept', pageSize: SIZE, page: 2, after: first.next! });
      expect(second.count).toBe(1100);
      expect((await h.admin('GET', '/v1/admin/appinfo/remove', { query: { id: first.rows[0].id } })).status).toBe(200);
      expect((await list('/v1/admin/appinfo/get', { email: 'kept', pageSize: SIZE, page: 2 })).count).toBe(1099);
    });
  },
);

describe('the FTS5 trigram tables (sqlite)', () => {
  it('are kept across a restart, not built again from the table', async () => {
    const { app, cleanup } = await startApp('sqlite');
    const dataDir = app.engine.dataDir;
    let again: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      await app.engine.db.insertInto('app_infos').values({ appInstallId: 'kept-fts', email: 'kept-fts@example.com', active: 'yes' }).execute();
      const { id } = await app.engine.db.selectFrom('app_infos').select('id').where('appInstallId', '=', 'kept-fts').executeTakeFirstOrThrow();
      // Take the row out of the FTS index only: a rebuild from the table would put it back.
      await sql`insert into fts_app_infos(fts_app_infos, rowid, email, login, "appInstallId") values ('delete', ${id}, 'kept-fts@example.com', null, 'kept-fts')`.execute(app.engine.db);
      await app.close();
      again = await buildApp({
        config: { dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password, schemasDir: resolve('schemas'), distDir: join(dataDir, 'no-dist'), corsOrigins: [], databaseUrl: undefined, publicUrl: undefined, panelHosts: undefined },
      });
      const found = await sql<{ rowid: number }>`select rowid from fts_app_infos where email like '%kept-fts%'`.execute(again.engine.db);
      expect(found.rows).toEqual([]);
    } finally {
      await again?.close();
      await cleanup();
    }
  });
});

describe('the pg_trgm indexes (postgres)', () => {
  it('replace the index on the column of earlier versions by one on its lowercase at start, with the same rows found', async () => {
    const { app, databaseUrl, cleanup } = await startApp('postgres');
    const dataDir = app.engine.dataDir;
    let again: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      await app.engine.db.insertInto('app_infos').values({ appInstallId: 'old-trgm', email: 'Old.Trgm@Example.com', active: 'yes' }).execute();
      await sql`drop index trgm_lower_app_infos_email`.execute(app.engine.db);
      await sql`create index trgm_app_infos_email on app_infos using gin (email gin_trgm_ops)`.execute(app.engine.db);
      await app.close();
      again = await buildApp({
        config: { dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password, schemasDir: resolve('schemas'), distDir: join(dataDir, 'no-dist'), corsOrigins: [], databaseUrl, publicUrl: undefined, panelHosts: undefined },
      });
      const indexes = await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes where tablename = 'app_infos' and indexdef like '%gin_trgm_ops%' and indexdef like '%email%'`.execute(again.engine.db);
      expect(indexes.rows.map((r) => r.name)).toEqual(['trgm_lower_app_infos_email']);
      expect(indexes.rows[0].def).toContain('gin (lower(email) gin_trgm_ops)');
      const login = await again.inject({ method: 'POST', url: '/v1/user/login', payload: ADMIN });
      const listed = await again.inject({ method: 'GET', url: '/v1/admin/appinfo/get?email=old.TRGM', headers: { authorization: login.json().data.token } });
      expect(listed.json().data.rows.map((r: { appInstallId: string }) => r.appInstallId)).toEqual(['old-trgm']);
    } finally {
      await again?.close();
      await cleanup();
    }
  });
});

/** The users of one experiment (/abtesting/:id, always filtered by it): above the count limit of 100 here. */
const MEMBERS = 700;

forEachDialect(
  'the users of one experiment, filtered and sorted',
  (h) => {
    const db = () => h.app.engine.db;
    const list = async (query: Record<string, string | number>) => {
      const reply = await h.admin('GET', '/v1/admin/abtesting/users', { query });
      expect(reply.status, reply.raw).toBe(200);
      return reply.body.data as ListData;
    };

    it('pages every sort under every contains filter by cursor and offset exactly as a scan of the experiment, counts included', async () => {
      const now = new Date().toISOString();
      await db().insertInto('whitelabels').values({ name: 'exp-wl', feUrl: 'https://exp.example.com/', deployConfiguration: '{}', imageHD: 'a.png', imageFHD: 'b.png', cssConfig: 'c.css', createdAt: now, updatedAt: now }).execute();
      const wl = await db().selectFrom('whitelabels').select('id').where('name', '=', 'exp-wl').executeTakeFirstOrThrow();
      const caps = h.app.engine.caps;
      const experiment = { whitelabelId: wl.id, platformIds: '[]', modelNames: '[]', recordsCount: MEMBERS, isActive: caps.toDbBoolean(false), isCollecting: caps.toDbBoolean(false), isRandomSaveEnable: caps.toDbBoolean(false), probability: 1, versionsDeploymentSettings: '[]', createdAt: now };
      await db().insertInto('experiments').values([experiment, experiment]).execute();
      const [mine, other] = (await db().selectFrom('experiments').select('id').orderBy('id').execute()).map((r) => Number(r.id)).slice(-2);
      // Ties and nulls in every sortable column; one user in five in the other experiment.
      const rows = Array.from({ length: MEMBERS }, (_, i) => ({
        abtestingId: i % 5 === 4 ? other : mine,
        appInstallId: `app-${(i * 7919) % 97}-${i}`,
        modelName: i % 6 === 0 ? null : `m${i % 7}`,
        version: i % 11 === 0 ? null : `1.${i % 3}.0`,
        platform: i % 9 === 0 ? null : i % 2 ? 'tizen' : 'webos',
        userId: i % 8 === 0 ? null : `u${i % 40}`,
        groupNumber: i % 10 === 0 ? null : (i % 3) + 1,
      }));
      await db().insertInto('experiment_users').values(rows).execute();
      const like = h.dialect === 'postgres' ? 'ilike' : 'like';
      const sortable = ['id', 'appInstallId', 'modelName', 'version', 'platform', 'userId', 'groupNumber'];
      // Many matches (past the count limit), some (two pages), few (less than a page).
      for (const [param, value] of [['platform', 'TIZ'], ['userId', 'u1'], ['appInstallId', 'app-1'], ['userId', 'u17']]) {
        for (const field of sortable) {
          for (const direction of ['asc', 'desc'] as const) {
            const scanned = (
              await db()
                .selectFrom('experiment_users')
                .select('id')
                .where('abtestingId', '=', mine)
                .where(sql<boolean>`${sql.ref(param)} ${sql.raw(like)} ${`%${value}%`}`)
                .orderBy(field, direction)
                .orderBy('id', direction)
                .execute()
            ).map((r) => Number(r.id));
            const query = { id: mine, [param]: value, sortBy: field, sortOrder: direction };
            const what = `${param} ~ ${value}, ${field} ${direction}`;
            const ids: number[] = [];
            let after: string | undefined;
            for (let page = 1; page < 30; page++) {
              const byCursor = await list({ ...query, page, pageSize: SIZE, ...(after ? { after } : {}) });
              const byOffset = await list({ ...query, page, pageSize: SIZE });
              expect(byCursor.rows.map((r) => r.id), `${what}, page ${page}`).toEqual(byOffset.rows.map((r) => r.id));
              // A page that is not full tells the exact count; a full one past the limit answers it capped.
              const capped = scanned.length > 100 && byCursor.rows.length === SIZE;
              expect({ count: byCursor.count, countCapped: byCursor.countCapped }, what).toEqual(capped ? { count: 100, countCapped: true } : { count: scanned.length, countCapped: undefined });
              ids.push(...byCursor.rows.map((r) => r.id));
              if (!byCursor.next) break;
              after = byCursor.next;
            }
            expect(ids, what).toEqual(scanned);
          }
        }
      }
    });
  },
  { config: { listCountLimit: 100 } },
);
