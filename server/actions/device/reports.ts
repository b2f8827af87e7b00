// The device reports of docs/device-api.md: an application's app info (one row per appInstallId, updated in
// place) and its achieved goals (one row per device, goal and experiment; a repeat counts in stuckingCount).
// Their input is the manifest's inputSchema; each writes its own table only, in a transaction locked on the
// device (through the device writes' budget, budget.ts), and is announced on the change feed. Device writes are
// not staff actions: no users-log row.
import type { Kysely } from 'kysely';
import type { Engine } from '../../core/context.ts';
import { toDb } from '../../core/rows.ts';
import { fieldError } from '../../errors.ts';
import type { ActionContext } from '../types.ts';
import { deviceWrites } from './budget.ts';

const tableOf = (engine: Pick<Engine, 'models'>, entity: string) => {
  const model = engine.models.get(entity);
  if (!model) throw new Error(`device reports need the ${entity} entity`);
  return model;
};

/** A report's write, through the device writes' budget (budget.ts), then announced on the change feed. */
async function report<T>(engine: Pick<Engine, 'caps' | 'changes' | 'db'>, entity: string, path: string | undefined, lockKey: string, body: (trx: Kysely<any>) => Promise<T>): Promise<T> {
  const result = await deviceWrites(engine).write(lockKey, body);
  engine.changes.emit({ entity, path: path ?? '' });
  return result;
}

/** appinfo.report: the fields sent replace the stored ones of that appInstallId; a new appInstallId is added. */
export async function reportAppInfo({ engine, input, path }: ActionContext) {
  const model = tableOf(engine, 'appinfo');
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input)) values[field] = toDb(engine, model.kindOf(field), value);
  const appInstallId = String(input.appInstallId);
  return report(engine, 'appinfo', path, `appinfo:${appInstallId}`, async (trx) => {
    const updated = await trx.updateTable(model.table).set(values).where('appInstallId', '=', appInstallId).executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return { created: false };
    await trx.insertInto(model.table).values({ active: 'yes', ...values }).execute();
    return { created: true };
  });
}

/**
 * achievedGoal.report: the goal must exist on the Goals screen and the experiment, when named, must exist. A
 * goal the device already reported (same goal and experiment) counts once more instead of adding a row.
 */
export async function reportAchievedGoal({ engine, input, path }: ActionContext) {
  const model = tableOf(engine, 'achievedGoal');
  const goals = tableOf(engine, 'goal');
  const experiments = tableOf(engine, 'experiment');
  const appInstallId = String(input.appInstallId);
  const goalName = String(input.goalName);
  const abtestingId = (input.abtestingId as number | null | undefined) ?? null;
  const values = {
    userId: (input.userId as string | null | undefined) ?? null,
    goalDateTime: (input.goalDateTime as string | undefined) ?? new Date().toISOString(),
    goalParams: toDb(engine, 'json', input.goalParams ?? null),
  };
  return report(engine, 'achievedGoal', path, `goal:${appInstallId}`, async (trx) => {
    if (!(await trx.selectFrom(goals.table).select('id').where('goalName', '=', goalName).executeTakeFirst())) {
      throw fieldError('goalName', `goalName: no goal named "${goalName}"`);
    }
    if (abtestingId !== null && !(await trx.selectFrom(experiments.table).select('id').where('id', '=', abtestingId).executeTakeFirst())) {
      throw fieldError('abtestingId', `abtestingId: no experiment with id ${abtestingId}`);
    }
    const same = await trx
      .selectFrom(model.table)
      .select(['id', 'stuckingCount'])
      .where('appInstallId', '=', appInstallId)
      .where('goalName', '=', goalName)
      .where('abtestingId', abtestingId === null ? 'is' : '=', abtestingId)
      .orderBy('id', 'asc')
      .executeTakeFirst();
    if (same) {
      const stuckingCount = Number(same.stuckingCount ?? 0) + 1;
      await trx.updateTable(model.table).set({ ...values, stuckingCount }).where('id', '=', same.id).execute();
      return { stuckingCount };
    }
    await trx.insertInto(model.table).values({ appInstallId, goalName, abtestingId, stuckingCount: 0, ...values }).execute();
    return { stuckingCount: 0 };
  });
}
