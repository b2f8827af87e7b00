// Lists at scale (issue 14): counts capped past LIST_COUNT_LIMIT (lowered here to 30), paging past the cap.
import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { forEachDialect } from './harness.ts';

/** Every index of a table as its column list, read from the database's catalog. */
async function indexesOf(h: { dialect: string; app: { engine: { db: any } } }, table: string): Promise<string[][]> {
  const db = h.app.engine.db;
  if (h.dialect === 'sqlite') {
    const names = (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db)).rows;
    const out: string[][] = [];
    for (const { name } of names) {
      const cols = (await sql<{ name: string; seqno: number }>`select name, seqno from pragma_index_info(${name})`.execute(db)).rows;
      out.push(cols.sort((a, b) => a.seqno - b.seqno).map((c) => c.name));
    }
    return out;
  }
  const rows = (
    await sql<{ index: string; column: string; position: number }>`
      select i.indexrelid::regclass::text as index, a.attname as column, k.position
      from pg_index i cross join lateral unnest(i.indkey) with ordinality as k(attnum, position)
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
      where i.indrelid = ${table}::regclass`.execute(db)
  ).rows;
  const byIndex = new Map<string, { column: string; position: number }[]>();
  for (const r of rows) byIndex.set(r.index, [...(byIndex.get(r.index) ?? []), r]);
  return [...byIndex.values()].map((cols) => cols.sort((a, b) => Number(a.position) - Number(b.position)).map((c) => c.column));
}

const LIMIT = 30;

forEachDialect(
  'lists at scale',
  (h) => {
    const seed = async (count: number, prefix: string) => {
      const rows = Array.from({ length: count }, (_, i) => ({ appInstallId: `${prefix}-${String(i).padStart(3, '0')}`, email: `${prefix}${i}@example.com`, active: 'yes' }));
      await h.app.engine.db.insertInto('app_infos').values(rows).execute();
    };
    const list = async (query: Record<string, string | number>) => {
      const reply = await h.call('GET', '/v1/admin/appinfo/get', { query, token: h.tokens.customercare });
      expect(reply.status).toBe(200);
      return reply.body.data as { rows: { id: number; appInstallId: string }[]; count: number; countCapped?: boolean; next?: string };
    };

    it('has an index (column, id) behind every sortable and filterable own column of every list', async () => {
      for (const manifest of h.app.engine.manifests) {
        const model = manifest.table && h.app.engine.models.get(manifest.entity);
        if (!model || !manifest.list) continue;
        const indexes = (await indexesOf(h, model.table)).map((cols) => cols.join(','));
        const fields = new Set([...(manifest.list.sortable ?? []), ...(manifest.list.filters ?? []).map((f) => f.field)]);
        for (const field of fields) {
          if (field === 'id' || field.includes('.')) continue;
          expect(indexes, `${model.table}.${field}`).toContain(`${field},id`);
        }
      }
    });

    it('serves trigram contains filters from their index with the same rows as a scan, writes included', async () => {
      await h.call('GET', '/v1/admin/appinfo/removeAll', { token: h.tokens.customercare });
      const values = ['Ann.Lee@Example.com', 'ann_lee@example.com', 'annXlee@example.com', 'bob%20@x.io', 'BOB@x.io', 'zoë@x.io', null, 'c\\d@x.io'];
      await h.app.engine.db.insertInto('app_infos').values(values.map((email, i) => ({ appInstallId: `trgm-${i}`, email, login: `l${i}`, active: 'yes' }))).execute();
      // Written after the index exists: an update and a delete reach it too.
      const update = await h.app.engine.db.updateTable('app_infos').set({ email: 'renamed-ann@example.com' }).where('appInstallId', '=', 'trgm-2').execute();
      expect(update.length).toBe(1);
      await h.app.engine.db.deleteFrom('app_infos').where('appInstallId', '=', 'trgm-4').execute();
      const like = h.dialect === 'postgres' ? 'ilike' : 'like';
      for (const value of ['ann', 'ANN.LEE', 'n_l', '%2', 'bob', 'x.io', 'renamed', 'zo', '\\', 'nothing-here']) {
        const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
        const scanned = await h.app.engine.db
          .selectFrom('app_infos')
          .select('appInstallId')
          .where(sql<boolean>`email ${sql.raw(like)} ${`%${escaped}%`} escape '\\'`)
          .orderBy('id', 'desc')
          .execute();
        const listed = await list({ email: value, pageSize: 100 });
        expect(listed.rows.map((r) => r.appInstallId), value).toEqual(scanned.map((r) => r.appInstallId));
        expect(listed.count, value).toBe(scanned.length);
      }
      // The index exists in the catalog: an FTS5 trigram table on SQLite, a pg_trgm GIN index on PostgreSQL.
      const found =
        h.dialect === 'sqlite'
          ? await sql<{ sql: string }>`select sql from sqlite_master where name = 'fts_app_infos'`.execute(h.app.engine.db)
          : await sql<{ sql: string }>`select indexdef as sql from pg_indexes where tablename = 'app_infos' and indexdef like '%gin_trgm_ops%'`.execute(h.app.engine.db);
      expect(found.rows.map((r) => r.sql).join(' ')).toMatch(h.dialect === 'sqlite' ? /fts5\(.*email.*trigram/ : /gin \(lower\(email\) gin_trgm_ops\)/);
    });

    it('answers a contains filter matching many rows, and one matching many old rows only, page by page exactly as a scan', async () => {
      await h.call('GET', '/v1/admin/appinfo/removeAll', { token: h.tokens.customercare });
      // 3,000 rows: one in five of them (old and new) match "dense", 57 of the 500 oldest "sparse"; both past the count
      // limit. On SQLite the newest rows are tested first once the count is known to be capped (list-page.ts).
      const email = (i: number) => (i % 5 === 0 ? `Dense${i}@x.io` : i < 500 && i % 7 === 0 ? `sparse${i}@x.io` : `other${i}@x.io`);
      const rows = Array.from({ length: 3000 }, (_, i) => ({ appInstallId: `many-${i}`, email: email(i), active: 'yes' }));
      for (let i = 0; i < rows.length; i += 500) await h.app.engine.db.insertInto('app_infos').values(rows.slice(i, i + 500)).execute();
      const like = h.dialect === 'postgres' ? 'ilike' : 'like';
      const truth = async (value: string) =>
        (await h.app.engine.db.selectFrom('app_infos').select('appInstallId').where(sql<boolean>`email ${sql.raw(like)} ${`%${value}%`}`).orderBy('id', 'desc').execute()).map((r) => r.appInstallId);
      const pages = async (value: string) => {
        const out: string[] = [];
        let page = await list({ email: value, pageSize: 15 });
        expect(page).toMatchObject({ count: LIMIT, countCapped: true });
        for (let n = 2; n <= 4; n++) {
          out.push(...page.rows.map((r) => r.appInstallId));
          page = await list({ email: value, pageSize: 15, page: n, after: page.next! });
        }
        return out;
      };
      for (const value of ['dense', 'DENSE', 'sparse', 'dense', 'sparse']) {
        const expected = (await truth(value)).slice(0, 45);
        expect(expected, value).toHaveLength(45);
        expect(await pages(value), value).toEqual(expected);
      }
      // A write through the API: the next pages are the list as it is now.
      const [newest] = (await list({ email: 'dense', pageSize: 15 })).rows;
      expect((await h.call('GET', '/v1/admin/appinfo/remove', { query: { id: newest.id }, token: h.tokens.customercare })).status).toBe(200);
      await list({ email: 'dense', pageSize: 15 });
      expect(await pages('dense')).toEqual((await truth('dense')).slice(0, 45));
    });

    it('pages a contains filter sorted by a column it goes with exactly as a scan, a match under a new sort value included', async () => {
      await h.call('GET', '/v1/admin/appinfo/removeAll', { token: h.tokens.customercare });
      // 3,000 rows in four versions; "trail" only in e-mails of version 4.0.0 (250 rows, past the count limit), so the
      // rows of the three versions before it hold no match at all.
      const rows = Array.from({ length: 3000 }, (_, i) => ({
        appInstallId: `sorted-${i}`,
        version: `${(i % 4) + 1}.0.0`,
        email: i % 4 === 3 && i % 3 === 0 ? `Trail${i}@x.io` : `other${i}@x.io`,
        active: 'yes',
      }));
      for (let i = 0; i < rows.length; i += 500) await h.app.engine.db.insertInto('app_infos').values(rows.slice(i, i + 500)).execute();
      const like = h.dialect === 'postgres' ? 'ilike' : 'like';
      const truth = async (direction: 'asc' | 'desc') =>
        (
          await h.app.engine.db
            .selectFrom('app_infos')
            .select('appInstallId')
            .where(sql<boolean>`email ${sql.raw(like)} ${'%trail%'}`)
            .orderBy('version', direction)
            .orderBy('id', direction)
            .limit(45)
            .execute()
        ).map((r) => r.appInstallId);
      const pages = async (sortOrder: 'asc' | 'desc') => {
        const out: string[] = [];
        const query = { email: 'trail', sortBy: 'version', sortOrder, pageSize: 15 };
        let page = await list(query);
        for (let n = 2; n <= 4; n++) {
          out.push(...page.rows.map((r) => r.appInstallId));
          page = await list({ ...query, page: n, after: page.next! });
        }
        return out;
      };
      for (const direction of ['asc', 'desc', 'asc'] as const) expect(await pages(direction), direction).toEqual(await truth(direction));
      // A device reports a matching e-mail under a version no match had: it is the first row of the next asc page.
      expect((await h.call('POST', '/v1/appinfo/report', { body: { appInstallId: 'sorted-new', email: 'trail-new@x.io', version: '0.1.0' } })).status).toBe(200);
      await expect.poll(async () => (await list({ email: 'trail', sortBy: 'version', sortOrder: 'asc', pageSize: 15 })).rows[0]?.appInstallId).toBe('sorted-new');
      expect(await pages('asc')).toEqual(await truth('asc'));
    });

    it('sorts ties by id in the direction of the sort', async () => {
      await h.call('GET', '/v1/admin/appinfo/removeAll', { token: h.tokens.customercare });
      await h.app.engine.db.insertInto('app_infos').values(['a', 'b', 'c'].map((x) => ({ appInstallId: `tie-${x}`, version: '1.0.0', active: 'yes' }))).execute();
      const ids = async (sortOrder: string) => (await list({ sortBy: 'version', sortOrder })).rows.map((r) => r.id);
      const asc = await ids('asc');
      expect(asc).toEqual([...asc].sort((a, b) => a - b));
      expect(await ids('desc')).toEqual([...asc].reverse());
    });

    it('counts exactly up to the limit and answers a capped count beyond it, while every page stays reachable', async () => {
      await h.call('GET', '/v1/admin/appinfo/removeAll', { token: h.tokens.customercare });
      await seed(45, 'cap');
      const first = await list({ pageSize: 10 });
      expect(first).toMatchObject({ count: LIMIT, countCapped: true });
      expect(first.rows).toHaveLength(10);
      // Page 4 holds rows 31-40, past the cap: still full rows, the count still capped.
      const fourth = await list({ pageSize: 10, page: 4 });
      expect(fourth.rows.map((r) => r.appInstallId)).toEqual(Array.from({ length: 10 }, (_, i) => `cap-${String(14 - i).padStart(3, '0')}`));
      expect(fourth.countCapped).toBe(true);
      // The same page asked with the cursor of page 3: the same rows, the count still capped ("30+").
      const third = await list({ pageSize: 10, page: 3 });
      const byCursor = await list({ pageSize: 10, page: 4, after: third.next! });
      expect(byCursor.rows.map((r) => r.appInstallId)).toEqual(fourth.rows.map((r) => r.appInstallId));
      expect(byCursor).toMatchObject({ count: LIMIT, countCapped: true });
      // The last page is not full: it tells the exact count, by number or by cursor.
      const lastByCursor = await list({ pageSize: 10, page: 5, after: (await list({ pageSize: 10, page: 4 })).next! });
      expect(lastByCursor.rows).toHaveLength(5);
      expect(lastByCursor).toMatchObject({ count: 45 });
      expect(lastByCursor.countCapped).toBeUndefined();
      const last = await list({ pageSize: 10, page: 5 });
      expect(last.rows).toHaveLength(5);
      expect(last).toMatchObject({ count: 45 });
      expect(last.countCapped).toBeUndefined();
      // A filter matching fewer rows than the limit counts them exactly.
      const filtered = await list({ pageSize: 5, appInstallId: 'cap-01' });
      expect(filtered).toMatchObject({ count: 10 });
      expect(filtered.countCapped).toBeUndefined();
      expect(filtered.rows).toHaveLength(5);
    });

    it('forgets a capped count when a write through the API changes the list', async () => {
      await h.call('GET', '/v1/admin/appinfo/removeAll', { token: h.tokens.customercare });
      await seed(LIMIT + 1, 'forget');
      const before = await list({ pageSize: 10 });
      expect(before).toMatchObject({ count: LIMIT, countCapped: true });
      expect((await h.call('GET', '/v1/admin/appinfo/remove', { query: { id: before.rows[0].id }, token: h.tokens.customercare })).status).toBe(200);
      const after = await list({ pageSize: 10 });
      expect(after.count).toBe(LIMIT);
      expect(after.countCapped).toBeUndefined();
    });
  },
  { config: { listCountLimit: LIMIT } },
);
