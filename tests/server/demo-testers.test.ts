// The issue-5 demo areas, after the catalogue's, go through the real calls and leave rows on every screen of the area.
import { expect, it } from 'vitest';
import { catalogueAreas, type DemoContext } from '../../scripts/demo/catalogue.ts';
import { demoApi } from '../../scripts/demo/client.ts';
import { testersAreas } from '../../scripts/demo/testers.ts';
import { forEachDialect } from './harness.ts';

forEachDialect('demo data for testers and experiments', (h) => {
  it('fills tester lists (IPs, e-mails, phones), app info, goals and an experiment with users and achieved goals', async () => {
    const ctx: DemoContext = { api: await demoApi(h.app, h.tokens.admin), ids: {} };
    for (const [, fill] of [...catalogueAreas, ...testersAreas(h.app.engine.db)]) await fill(ctx);
    const count = async (path: string, query: Record<string, string | number> = {}) => (await h.admin('GET', path, { query })).body.data.count;
    expect(await count('/v1/admin/testersIP/get')).toBe(5);
    expect(await count('/v1/admin/testersPhones/get')).toBe(2);
    const emails = (await h.admin('GET', '/v1/admin/testersEmails/get', { query: { sortBy: 'email' } })).body.data.rows;
    expect(emails.map((r: { email: string; active: boolean }) => [r.email, r.active])).toEqual([
      ['former.tester@example.com', false],
      ['qa.lead@example.com', true],
      ['tv-lab@example.com', true],
    ]);
    expect(emails.every((r: { hash: string }) => /^[0-9a-f]{32}$/.test(r.hash))).toBe(true);
    expect(await count('/v1/admin/appinfo/get')).toBe(5);
    expect(await count('/v1/admin/goalsAbtesting/get')).toBe(3);
    const experiment = (await h.admin('GET', '/v1/admin/abtesting/get')).body.data.rows[0];
    expect(experiment).toMatchObject({ recordsCount: 100, isCollecting: true, probability: 0.5, whitelabel: { name: 'aurora' } });
    expect(await count('/v1/admin/abtesting/users', { id: experiment.id })).toBe(12);
    expect(await count('/v1/admin/achievedGoals/get', { goalName: 'purchase' })).toBe(2);
  });
});
