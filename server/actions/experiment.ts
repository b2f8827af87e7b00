// The A/B experiment calls that are not plain CRUD. The add/edit check reads the rules the experiment form
// uses (overrides/experiment/rules.ts), so the client and the server refuse the same input.
import { experimentProblems, type ExperimentDraft } from '../../overrides/experiment/rules.ts';
import { notFound } from '../errors.ts';
import type { ActionContext } from './index.ts';

/** experiment.rules: every broken rule of SPEC section 5, on the record as it will be stored. */
export const experimentRules = (record: Record<string, unknown>): string[] => experimentProblems(record as ExperimentDraft);

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
