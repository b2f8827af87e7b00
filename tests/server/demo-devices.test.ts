// The issue-9 demo area, after the catalogue's and the testers': TVs that join an experiment through the public
// lookup and report through the public calls, and one device per lookup rule for the Test request screen.
import { expect, it } from 'vitest';
import { catalogueAreas, type DemoContext } from '../../scripts/demo/catalogue.ts';
import { demoApi } from '../../scripts/demo/client.ts';
import { LOOKUP_EXAMPLES, devicesAreas, lookup } from '../../scripts/demo/devices.ts';
import { testersAreas } from '../../scripts/demo/testers.ts';
import { forEachDialect } from './harness.ts';

forEachDialect('demo devices', (h) => {
  it('leaves an active experiment with its TVs, their reports, and a device that shows each matchedBy', async () => {
    const ctx: DemoContext = { api: await demoApi(h.app, h.tokens.admin), ids: {} };
    for (const [, fill] of [...catalogueAreas, ...testersAreas(h.app.engine.db), ...devicesAreas(h.app)]) await fill(ctx);
    expect(LOOKUP_EXAMPLES.map((e) => e.matchedBy).sort()).toEqual(['device', 'experiment', 'ip', 'latest', 'published']);
    for (const example of LOOKUP_EXAMPLES) expect((await lookup(h.app, example.query)).matchedBy, example.why).toBe(example.matchedBy);
    const id = ctx.ids.experiment.devices;
    const users = (await h.admin('GET', '/v1/admin/abtesting/users', { query: { id, sortBy: 'appInstallId' } })).body.data.rows;
    expect(users.map((u: { appInstallId: string; groupNumber: number }) => [u.appInstallId, u.groupNumber])).toEqual([
      ['demo-ab-tv-1', 1],
      ['demo-ab-tv-2', 2],
      ['demo-ab-tv-3', 1],
      ['demo-ab-tv-4', 2],
    ]);
    expect((await h.admin('GET', '/v1/admin/appinfo/get', { query: { appInstallId: 'demo-ab-tv' } })).body.data.count).toBe(4);
    const goals = (await h.admin('GET', '/v1/admin/achievedGoals/get', { query: { appInstallId: 'demo-ab-tv-1' } })).body.data.rows;
    expect(goals).toEqual([expect.objectContaining({ goalName: 'trial', stuckingCount: 1, goalParams: { days: 14 }, abtestingId: id })]);
  });
});
