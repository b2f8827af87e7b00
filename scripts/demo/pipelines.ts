// The demo's pipelines, one area like scripts/demo/catalogue.ts: one pipeline in every status the Pipelines
// screen colours (SPEC 4). Pipelines are created by GitLab, which the demo does not have, so their records go
// straight to the table as runPipeline would have stored them; their GitLab links point at an example host.
import type { Kysely } from 'kysely';
import type { DemoContext } from './catalogue.ts';

const RUNS: [status: string, whitelabel: string, ref: string, hoursAgo: number][] = [
  ['success', 'aurora', '1.20.33', 72],
  ['failed', 'nordtv', '1.20.33', 50],
  ['canceled', 'kinomax', '1.19.8', 30],
  ['skipped', 'nordtv', '1.20.34', 20],
  ['success', 'aurora', '1.20.34', 6],
  ['running', 'kinomax', '1.20.34', 0.2],
  ['pending', 'aurora', '1.20.35', 0.05],
];

function demoPipelines(db: Kysely<any>) {
  return async ({ ids }: DemoContext) => {
    const admin = await db.selectFrom('users').select(['id', 'email']).where('role', '=', 'admin').orderBy('id').executeTakeFirstOrThrow();
    await db
      .insertInto('pipelines')
      .values(
        RUNS.map(([status, whitelabel, ref, hoursAgo], i) => {
          const whitelabelId = ids.whitelabel?.[whitelabel];
          if (whitelabelId === undefined) throw new Error('demo: the whitelabels area must run before the pipelines area');
          const at = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
          return {
            pipelineId: 48210 + i,
            ref,
            status,
            webUrl: `https://gitlab.example.com/tv/app/-/pipelines/${48210 + i}`,
            whitelabelId,
            whitelabelName: whitelabel,
            userId: admin.id,
            userEmail: admin.email,
            createdAt: at,
            updatedAt: at,
          };
        }),
      )
      .execute();
  };
}

/** The pipelines area, after the catalogue's (it uses its whitelabels). */
export function pipelinesAreas(db: Kysely<any>): [string, (ctx: DemoContext) => Promise<void>][] {
  return [['pipelines in every status', demoPipelines(db)]];
}
