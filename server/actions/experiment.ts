// The A/B experiment calls that are not plain CRUD. The add/edit check reads the rules the experiment form
// uses (overrides/experiment/rules.ts), so the client and the server refuse the same input.
import { experimentProblems, type ExperimentDraft } from '../../kernel/rules/experiment.ts';
import { notFound } from '../errors.ts';
import { refusalText } from '../../kernel/manifest/error-text.ts';
import type { ActionContext, CheckContext } from './types.ts';

/** The largest id an integer column holds: a larger one names no row, and must not reach PostgreSQL. */
const MAX_ID = 2_147_483_647;

/**
 * experiment.rules: every broken rule of SPEC section 5, on the record as it will be stored, with the platform
 * names read in the write's transaction. Only what needs the database is here: platform ids that name no
 * platform. The files-map keys and Active-with-Collecting on add are the form's own rules.
 */
export async function experimentRules(record: Record<string, unknown>, { engine, db, mode }: CheckContext): Promise<string[]> {
  const draft = record as ExperimentDraft;
  const ids = [...new Set((draft.platformIds ?? []).filter((id): id is number => typeof id === 'number'))];
  const lookable = ids.filter((id) => id <= MAX_ID);
  const rows = lookable.length
    ? await db.selectFrom(engine.models.get('platform')!.table).select(['id', 'name']).where('id', 'in', lookable).execute()
    : [];
  const names = new Map(rows.map((row) => [Number(row.id), String(row.name)]));
  const dangling = ids.filter((id) => !names.has(id));
  return [
    ...(dangling.length ? [refusalText.noRecord(engine.models.get('experiment')?.props.platformIds?.title ?? 'platformIds', 'platform', dangling.join(', '))] : []),
    ...experimentProblems(draft, { platformNames: names, creating: mode === 'create' }),
  ];
}

/**
 * experiment.deleteUser: removes an application (by appInstallId) from the collections that hold it, or, with
 * `id` (a collection id, as the users screen sends it), from that one collection only.
 */
export async function deleteExperimentUser({ engine, db, input }: ActionContext) {
  const table = engine.models.get('experimentUser')!.table;
  const appInstallId = input.appInstallId as string;
  const collection = input.id === undefined ? undefined : Number(input.id);
  let query = db.deleteFrom(table).where('appInstallId', '=', appInstallId);
  if (collection !== undefined) query = query.where('abtestingId', '=', collection);
  const count = Number((await query.executeTakeFirst()).numDeletedRows);
  if (count === 0) {
    const where = collection === undefined ? '' : ` in collection ${collection}`;
    throw notFound(`No experiment user with appInstallId ${appInstallId}${where}`);
  }
  return { count };
}
