// Rule 3 of the device lookup (docs/device-api.md): which A/B experiment a device belongs to, and the one write
// of the lookup, a new device joining a collection. The join runs in a transaction locked on the experiment,
// so devices racing for the last places never take more than recordsCount (SQLite: BEGIN IMMEDIATE; PostgreSQL:
// an advisory lock on the experiment, then the count).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
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

/**
 * An experiment's collection counted by group, as of its row `maxId`. Counting a collection of a million devices at
 * every join read a million index entries (the lookup's cost grew with the collection); a join counts only the rows
 * after `maxId` instead. Rows of one experiment are written under its lock (collect.ts join), so on both dialects they
 * commit in id order and none is missed; a row written or deleted otherwise (the panel, a migration) drops the counts.
 */
interface Filled {
  counts: Map<number | null, number>;
  maxId: number;
}

interface Counted {
  byExperiment: Map<number, Filled>;
  /** The lookup's own paths: their announcements are the joins, which the counts read themselves. */
  own: Set<string>;
  /** Counts read before a clear are not kept after it. */
  generation: number;
}

const counted = new WeakMap<object, Counted>();

function countsOf(engine: Pick<Engine, 'changes'>, path: string): Counted {
  let state = counted.get(engine);
  if (!state) {
    const fresh: Counted = { byExperiment: new Map(), own: new Set(), generation: 0 };
    engine.changes.on((change) => {
      if ((change.entity === 'experimentUser' || change.entity === 'experiment') && !fresh.own.has(change.path)) {
        fresh.byExperiment.clear();
        fresh.generation += 1;
      }
    });
    counted.set(engine, fresh);
    state = fresh;
  }
  state.own.add(path);
  return state;
}

/** The collection's counts by group inside the join's transaction: the cached ones plus the rows after them. */
async function filledNow(trx: Kysely<any>, table: string, experimentId: number, cached: Filled | undefined): Promise<Filled> {
  let query = trx
    .selectFrom(table)
    .select(['groupNumber', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.max('id').as('top')])
    .where('abtestingId', '=', experimentId);
  if (cached) query = query.where('id', '>', cached.maxId);
  const rows = await query.groupBy('groupNumber').execute();
  const counts = new Map(cached?.counts ?? []);
  let maxId = cached?.maxId ?? 0;
  for (const r of rows) {
    const group = r.groupNumber === null ? null : Number(r.groupNumber);
    counts.set(group, (counts.get(group) ?? 0) + Number(r.n));
    maxId = Math.max(maxId, Number(r.top));
  }
  return { counts, maxId };
}

/** Devices one transaction records at most (each one row of a multi-row insert). */
const JOIN_BATCH = 256;

interface Waiting {
  device: Device;
  resolve: (result: JoinResult) => void;
  reject: (error: unknown) => void;
}

/** The joins of one experiment waiting for the transaction under way to end; the next takes them all at once. */
interface Collector {
  waiting: Waiting[];
  running: boolean;
}

const collectors = new WeakMap<object, Map<number, Collector>>();

/**
 * Records the device in the experiment's collection, or finds it there; 'closed' when it is full or stopped collecting.
 * The devices starting while a join of the experiment is under way go together in the next transaction: a handful of
 * statements for all of them (the experiment, which of them are known, the count since the last one, one insert)
 * instead of as many per device, each holding the experiment's lock in turn (issue 34: a fleet's first calls).
 */
function join(engine: Pick<Engine, 'caps' | 'changes' | 'db' | 'models'>, experimentId: number, device: Device, path: string): Promise<JoinResult> {
  let byExperiment = collectors.get(engine);
  if (!byExperiment) collectors.set(engine, (byExperiment = new Map()));
  let collector = byExperiment.get(experimentId);
  if (!collector) byExperiment.set(experimentId, (collector = { waiting: [], running: false }));
  const c = collector;
  return new Promise<JoinResult>((resolve, reject) => {
    c.waiting.push({ device, resolve, reject });
    if (!c.running) void drain(engine, experimentId, c, countsOf(engine, path));
  });
}

async function drain(engine: Pick<Engine, 'caps' | 'db' | 'models'>, experimentId: number, c: Collector, state: Counted): Promise<void> {
  c.running = true;
  // One turn of the event loop first: the first calls that arrived with this one (the same read of the sockets) go in
  // its transaction, instead of this one alone and the others in the next. A transaction costs the same for one device
  // as for many (the commit's writes, SQLite's full-text table over the collection; issue 34: first calls, a tenth of
  // the calls, took 15-20 % of the lookup's CPU). Measured on the bench's device mix: 5.0 devices a transaction before,
  // 9.8 after on PostgreSQL; 4.9 and 5.3 on SQLite, whose batches already gather the devices of the last WAL sync.
  await new Promise((resolve) => setImmediate(resolve));
  while (c.waiting.length) {
    let batch: Waiting[] = [];
    try {
      // Through the device writes' budget (budget.ts): on SQLite in a batch with other device writes. The devices are
      // taken when the budget runs the write, so those that came while it waited its turn go in it too.
      let generation = state.generation;
      const { results, filled } = await deviceWrites(engine).write(`experiment:${experimentId}`, (trx) => {
        batch = c.waiting.splice(0, JOIN_BATCH);
        generation = state.generation;
        return joinMany(engine, trx, experimentId, batch.map((w) => w.device), state.byExperiment.get(experimentId));
      });
      // Committed: the counts as of these rows are the next join's start (a later one already kept stays).
      if (filled && state.generation === generation && filled.maxId > (state.byExperiment.get(experimentId)?.maxId ?? -1)) {
        state.byExperiment.set(experimentId, filled);
      }
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (error) {
      // Refused before it ran (the budget's 429): the devices it would have taken are refused with it.
      if (!batch.length) batch = c.waiting.splice(0, JOIN_BATCH);
      batch.forEach((w) => w.reject(error));
    }
  }
  c.running = false;
}

/** The joins of `devices` (in the order they came) in one transaction holding the experiment's lock. */
async function joinMany(
  engine: Pick<Engine, 'models'>,
  trx: Kysely<any>,
  experimentId: number,
  devices: Device[],
  cached: Filled | undefined,
): Promise<{ results: JoinResult[]; filled?: Filled }> {
  const experiments = engine.models.get('experiment')!;
  const users = engine.models.get('experimentUser')!;
  const row = await trx
    .selectFrom(experiments.table)
    .select(['isCollecting', 'recordsCount', 'versionsDeploymentSettings'])
    .where('id', '=', experimentId)
    .executeTakeFirst();
  if (!row || !fromDb('boolean', row.isCollecting)) return { results: devices.map(() => 'closed') };
  const ids = [...new Set(devices.map((d) => d.appInstallId))];
  const knownRows = await trx
    .selectFrom(users.table)
    .select(['appInstallId', 'groupNumber'])
    .where('abtestingId', '=', experimentId)
    .where('appInstallId', 'in', ids)
    .execute();
  const known = new Map<string, JoinResult>(
    knownRows.map((r) => [String(r.appInstallId), { group: r.groupNumber === null ? null : Number(r.groupNumber), added: false }]),
  );
  if (devices.every((d) => known.has(d.appInstallId))) return { results: devices.map((d) => known.get(d.appInstallId)!) };
  const filled = await filledNow(trx, users.table, experimentId, cached);
  const groups = groupsOf(fromDb('json', row.versionsDeploymentSettings));
  let total = [...filled.counts.values()].reduce((a, b) => a + b, 0);
  const added: { device: Device; group: number }[] = [];
  const results = devices.map((device): JoinResult => {
    const already = known.get(device.appInstallId);
    if (already) return already;
    if (total >= Number(row.recordsCount)) return 'closed';
    const group = chooseGroup(groups, filled.counts);
    if (group === null) return 'closed';
    filled.counts.set(group, (filled.counts.get(group) ?? 0) + 1);
    total += 1;
    added.push({ device, group });
    // The same device twice in one batch: its second start finds it recorded.
    known.set(device.appInstallId, { group, added: false });
    return { group, added: true };
  });
  if (!added.length) return { results };
  const inserted = await trx
    .insertInto(users.table)
    .values(
      added.map(({ device, group }) => ({
        abtestingId: experimentId,
        appInstallId: device.appInstallId,
        groupNumber: group,
        modelName: device.modelName,
        version: device.version,
        whitelabel: device.whitelabel,
        platform: device.platform,
        userId: device.userId,
      })),
    )
    .returning('id')
    .execute();
  const maxId = inserted.reduce((top, r) => Math.max(top, Number(r.id)), filled.maxId);
  return { results, filled: { counts: filled.counts, maxId } };
}

/**
 * The experiment of this whitelabel and platform (and model, when it names models) whose collection holds the
 * device, newest first; otherwise the newest one that is collecting, has room and picks the device, which then
 * joins it. Undefined when the device is in none.
 */
export async function experimentOf(
  engine: Pick<Engine, 'caps' | 'changes' | 'db' | 'models'>,
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
    const joined = await join(engine, experiment.id, device, path);
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
