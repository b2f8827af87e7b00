// Rule 3 of the device lookup (docs/device-api.md): which A/B experiment a device belongs to, and the one write
// of the lookup, a new device joining a collection. The join runs in a transaction locked on the experiment,
// so devices racing for the last places never take more than recordsCount (SQLite: BEGIN IMMEDIATE; PostgreSQL:
// an advisory lock on the experiment, then the count).
import { createHash } from 'node:crypto';
import type { Engine } from '../../core/context.ts';
import { fromDb } from '../../core/rows.ts';
import { deviceWrites } from './budget.ts';
import { addMember, groupsOf, type ExperimentEntry, type GroupEntry, type SnapshotStore } from './snapshot.ts';

export interface Device {
  appInstallId: string;
  modelName: string | null;
  version: string | null;
  userId: string | null;
  whitelabel: string;
  platform: string;
}

export interface Membership {
  experiment: ExperimentEntry;
  /** 1-based group number; null for a user recorded without a group (by hand, or before groups existed). */
  group: number | null;
}

/**
 * Whether random save picks a device: the same answer for the same device and experiment every time (a hash,
 * not a die), so a device left out stays out instead of joining on its tenth start.
 */
export function pickedByChance(experimentId: number, appInstallId: string, probability: number): boolean {
  const draw = createHash('sha256').update(`${experimentId}:${appInstallId}`).digest().readUInt32BE(0) / 2 ** 32;
  return draw < probability;
}

/** The group a new device goes to: the least filled one (members / count) that is not full; ties to the first. */
export function chooseGroup(groups: GroupEntry[], counts: Map<number | null, number>): number | null {
  let best: number | null = null;
  let bestFill = Infinity;
  groups.forEach((g, i) => {
    const filled = counts.get(i + 1) ?? 0;
    if (g.count <= 0 || filled >= g.count) return;
    const fill = filled / g.count;
    if (fill < bestFill) {
      best = i + 1;
      bestFill = fill;
    }
  });
  return best;
}

type JoinResult = { group: number | null; added: boolean } | 'closed';

/** Records the device in the experiment's collection, or finds it there; 'closed' when it is full or stopped collecting. */
async function join(engine: Engine, experimentId: number, device: Device): Promise<JoinResult> {
  const experiments = engine.models.get('experiment')!;
  const users = engine.models.get('experimentUser')!;
  // Through the device writes' budget (budget.ts): on SQLite in a batch with other device writes.
  return deviceWrites(engine).write(`experiment:${experimentId}`, async (trx): Promise<JoinResult> => {
    const row = await trx
      .selectFrom(experiments.table)
      .select(['isCollecting', 'recordsCount', 'versionsDeploymentSettings'])
      .where('id', '=', experimentId)
      .executeTakeFirst();
    if (!row || !fromDb('boolean', row.isCollecting)) return 'closed';
    const known = await trx
      .selectFrom(users.table)
      .select('groupNumber')
      .where('abtestingId', '=', experimentId)
      .where('appInstallId', '=', device.appInstallId)
      .executeTakeFirst();
    if (known) return { group: known.groupNumber === null ? null : Number(known.groupNumber), added: false };
    const filled = await trx
      .selectFrom(users.table)
      .select(['groupNumber', (eb) => eb.fn.countAll().as('n')])
      .where('abtestingId', '=', experimentId)
      .groupBy('groupNumber')
      .execute();
    const counts = new Map(filled.map((r) => [r.groupNumber === null ? null : Number(r.groupNumber), Number(r.n)]));
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    if (total >= Number(row.recordsCount)) return 'closed';
    const group = chooseGroup(groupsOf(fromDb('json', row.versionsDeploymentSettings)), counts);
    if (group === null) return 'closed';
    await trx
      .insertInto(users.table)
      .values({
        abtestingId: experimentId,
        appInstallId: device.appInstallId,
        groupNumber: group,
        modelName: device.modelName,
        version: device.version,
        whitelabel: device.whitelabel,
        platform: device.platform,
        userId: device.userId,
      })
      .execute();
    return { group, added: true };
  });
}

/**
 * The experiment of this whitelabel and platform (and model, when it names models) whose collection holds the
 * device, newest first; otherwise the newest one that is collecting, has room and picks the device, which then
 * joins it. Undefined when the device is in none.
 */
export async function experimentOf(
  engine: Engine,
  store: SnapshotStore,
  candidates: ExperimentEntry[],
  device: Device,
  path: string,
): Promise<Membership | undefined> {
  for (const experiment of candidates) {
    const group = experiment.members.get(device.appInstallId);
    if (group !== undefined) return { experiment, group };
  }
  for (const experiment of candidates) {
    if (!experiment.isCollecting || experiment.total >= experiment.recordsCount) continue;
    if (experiment.isRandomSaveEnable && !pickedByChance(experiment.id, device.appInstallId, experiment.probability)) continue;
    const joined = await join(engine, experiment.id, device);
    // The snapshot learns of the join at once (the reload it would otherwise need costs more than the lookup).
    const now = store.experimentsNow()?.byId.get(experiment.id);
    if (joined === 'closed') {
      // Full or stopped as the database sees it: this copy stops trying until its next reload.
      if (now) now.isCollecting = false;
      continue;
    }
    if (now) addMember(now, device.appInstallId, joined.group);
    if (joined.added) engine.changes.emit({ entity: 'experimentUser', path });
    return { experiment, group: joined.group };
  }
  return undefined;
}
