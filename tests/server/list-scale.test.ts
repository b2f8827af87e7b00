// Lists at scale (issue 14): counts capped past LIST_COUNT_LIMIT (lowered here to 30), paging past the cap.
import { expect, it } from 'vitest';
import { forEachDialect } from './harness.ts';

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
      return reply.body.data as { rows: { id: number; appInstallId: string }[]; count: number; countCapped?: boolean };
    };

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
      // The last page is not full: it tells the exact count.
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
