// The pipelines demo area, after the catalogue's: one pipeline in every status the screen colours.
import { expect, it } from 'vitest';
import { catalogueAreas, type DemoContext } from '../../scripts/demo/catalogue.ts';
import { demoApi } from '../../scripts/demo/client.ts';
import { pipelinesAreas } from '../../scripts/demo/pipelines.ts';
import { forEachDialect } from './harness.ts';

forEachDialect('demo pipelines', (h) => {
  it('fills the Pipelines screen with a pipeline in every status, newest first, run by the admin', async () => {
    const ctx: DemoContext = { api: await demoApi(h.app, h.tokens.admin), ids: {} };
    for (const [, fill] of [...catalogueAreas, ...pipelinesAreas(h.app.engine.db)]) await fill(ctx);
    const rows = (await h.admin('GET', '/v1/admin/gitlab/getPipelines')).body.data.rows;
    expect(new Set(rows.map((r: { status: string }) => r.status))).toEqual(new Set(['success', 'pending', 'running', 'skipped', 'failed', 'canceled']));
    expect(rows[0]).toMatchObject({ status: 'pending', ref: '1.20.35', whitelabel: { name: 'aurora' }, user: { email: 'admin@test.io' } });
    expect((await h.admin('GET', '/v1/admin/gitlab/getPipelines', { query: { whitelabelName: 'kino' } })).body.data.count).toBe(2);
  });
});
