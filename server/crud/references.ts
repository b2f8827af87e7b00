// Rows that other rows still point at: a relation with `onDelete: restrict` (the default) forbids deleting
// them, so the bulk deletes (destroyAll, destroyByFilter) keep them and say which ones and why, instead of
// failing as a whole on the first foreign key.
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Relation } from '../../kernel/manifest/types.ts';
import { recordLabelField } from '../../kernel/manifest/fields.ts';
import type { Engine } from '../core/context.ts';
import type { EntityModel } from '../model/model.ts';
import { BULK_ROWS, type WriteRecord } from '../audit/diff.ts';
import { fromDb } from '../core/rows.ts';

/** How many kept records a bulk delete names in its answer: enough to find them, never a huge body. */
export const KEPT_NAMED = 20;

export interface KeptRows {
  /** How many rows were kept because other records use them. */
  count: number;
  /** The entities whose records use them (`["combination"]`). */
  by: string[];
  /** The first kept rows, by id, with the field that names them (`recordLabel`, else name, else id). */
  records: { id: number; label: string }[];
}

/** The relations of every entity that point at `model` and forbid deleting a referenced row. */
export function restrictingRelations(engine: Pick<Engine, 'caps' | 'models'>, model: EntityModel): { from: EntityModel; relation: Relation }[] {
  const found: { from: EntityModel; relation: Relation }[] = [];
  for (const from of engine.models.values()) {
    for (const relation of from.manifest.relations ?? []) {
      if (relation.entity === model.entity && (relation.onDelete ?? 'restrict') === 'restrict') found.push({ from, relation });
    }
  }
  return found;
}

type IdQuery = SelectQueryBuilder<any, any, { id: unknown }>;

/**
 * Deletes the rows of `model` that `candidates` selects (ids, as `select t.id`), except those a restricting
 * relation still uses; answers how many went and which stayed.
 * @example await deleteUnreferenced(engine, builds, trx, trx.selectFrom('builds as t').select('t.id'))
 */
export async function deleteUnreferenced(
  engine: Pick<Engine, 'caps' | 'models'>,
  model: EntityModel,
  db: Kysely<any>,
  candidates: IdQuery,
  /** Receives the first BULK_ROWS records deleted, as stored, for their users-log rows. */
  audit?: WriteRecord,
): Promise<{ count: number; kept: KeptRows }> {
  const relations = restrictingRelations(engine, model).map(({ from, relation }) => ({
    entity: from.entity,
    users: db.selectFrom(from.table).select(relation.field).where(relation.field, 'is not', null),
  }));
  const kept: KeptRows = { count: 0, by: [], records: [] };
  for (const { entity, users } of relations) {
    const one = await db.selectFrom(model.table).select('id').where('id', 'in', candidates).where('id', 'in', users).limit(1).executeTakeFirst();
    if (one && !kept.by.includes(entity)) kept.by.push(entity);
  }
  if (kept.by.length) {
    const label = recordLabelField(model.manifest);
    const keptQuery = db
      .selectFrom(model.table)
      .where('id', 'in', candidates)
      .where((eb) => eb.or(relations.map(({ users }) => eb('id', 'in', users))));
    const counted = await keptQuery.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst();
    kept.count = Number(counted?.count ?? 0);
    const rows = await keptQuery.select(label === 'id' ? ['id'] : ['id', label]).orderBy('id').limit(KEPT_NAMED).execute();
    kept.records = rows.map((r: Record<string, unknown>) => ({ id: Number(r.id), label: String(r[label] ?? r.id) }));
  }
  let remove = db.deleteFrom(model.table).where('id', 'in', candidates);
  for (const { users } of relations) remove = remove.where('id', 'not in', users);
  if (audit) {
    // Locked, so a bulk delete racing this one waits and then logs only the rows it still removes itself.
    let doomed = engine.caps.lockRows(db.selectFrom(model.table).select(model.readable).where('id', 'in', candidates), model.table);
    for (const { users } of relations) doomed = doomed.where('id', 'not in', users);
    const rows: Record<string, unknown>[] = await doomed.orderBy('id').limit(BULK_ROWS).execute();
    audit.deleted = rows.map((row) => Object.fromEntries(model.readable.map((f) => [f, fromDb(model.kindOf(f), row[f])])));
  }
  const result = await remove.executeTakeFirst();
  return { count: Number(result.numDeletedRows), kept };
}
