// How a list call counts its rows (issue 14): only what the filters need, exactly up to a limit and capped beyond
// it, and not again when only the page changes. docs/manifests.md "Lists: count" describes the answer.
import { sql, type Compilable, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Engine } from '../core/context.ts';
import type { EntityModel } from '../model/model.ts';

/** Rows counted exactly; beyond it the answer is `count: limit, countCapped: true` ("10,000+" in the pager). */
export const DEFAULT_LIST_COUNT_LIMIT = 10_000;
/** A kept count is kept this long at most (a write through the API forgets it at once). */
const CAPPED_COUNT_TTL_MS = 60_000;
/** Exact counts from this many rows up are kept as capped ones are: each took a query over that many rows. */
const KEPT_EXACT_COUNT = 1000;
const CACHED_FILTERS_PER_ENTITY = 200;

export interface ListCount {
  count: number;
  /** True when more rows match than `count` (the limit): the pager shows "10,000+". */
  countCapped?: true;
}

interface CountOptions {
  /** The filters' conditions applied to a query over `table as t` (joined to the relations named in `relations`). */
  where: (query: SelectQueryBuilder<any, any, any>) => SelectQueryBuilder<any, any, any>;
  /** Relations (by name) the active filters reach into: only those are joined. */
  relations: string[];
  /** Identifies the filters' values: counts are shared by calls that differ only in page, size or order. */
  key: string;
  /** The matching rows as a cheaper query of its own (one column), when there is one (server/crud/list-page.ts). */
  matching?: () => SelectQueryBuilder<any, any, any> | undefined;
  /** What the page query already tells: its offset, size and how many rows it answered. */
  offset: number;
  pageSize: number;
  rowsOnPage: number;
}

interface Cached {
  count: number;
  capped: boolean;
  at: number;
}

/** What a list keeps per entity between calls, and the writes seen (a value read before a write is not kept). */
export interface KeptPerEntity<V> {
  kept: Map<string, V>;
  writes: number;
}

/**
 * A per-app, per-entity store of what lists keep between calls, emptied at every committed change of the entity
 * (a write through the API, a device call, another process's write heard through the bridge).
 * @example const countsOf = keptPerEntity<Cached>(); const counts = countsOf(engine, 'appinfo');
 */
export function keptPerEntity<V>(): (engine: Pick<Engine, 'db' | 'changes'>, entity: string) => KeptPerEntity<V> {
  // Kept per database (the app's, whichever plugin's context asks), as the caches are of its tables.
  const caches = new WeakMap<Kysely<any>, Map<string, KeptPerEntity<V>>>();
  return (engine, entity) => {
    let byEntity = caches.get(engine.db);
    if (!byEntity) {
      const created = new Map<string, KeptPerEntity<V>>();
      engine.changes.on((change) => {
        const kept = created.get(change.entity);
        if (!kept) return;
        kept.kept.clear();
        kept.writes++;
      });
      caches.set(engine.db, (byEntity = created));
    }
    let kept = byEntity.get(entity);
    if (!kept) byEntity.set(entity, (kept = { kept: new Map(), writes: 0 }));
    return kept;
  };
}

/**
 * What `kept` holds under `key`, else what `read` answers, kept unless a write committed while it was read; past `max`
 * keys the store starts again.
 * @example const few = await keptRead(fewMatchesOf(engine, 'appinfo'), filterKey, 200, () => countMatches())
 */
export async function keptRead<V>(kept: KeptPerEntity<V>, key: string, max: number, read: () => Promise<V>): Promise<V> {
  const hit = kept.kept.get(key);
  if (hit !== undefined) return hit;
  const writes = kept.writes;
  const value = await read();
  if (writes === kept.writes) {
    if (kept.kept.size >= max) kept.kept.clear();
    kept.kept.set(key, value);
  }
  return value;
}

const cacheOf = keptPerEntity<Cached>();

/** Whether more rows match a list's filter values than the count limit, as far as a kept count tells (else undefined). */
export function keptCapped(engine: Pick<Engine, 'changes' | 'db'>, entity: string, key: string): boolean | undefined {
  const cached = cacheOf(engine, entity).kept.get(key);
  return cached && Date.now() - cached.at < CAPPED_COUNT_TTL_MS ? cached.capped : undefined;
}

/** Rows of a list's SELECT: off the event loop on SQLite (server/db/read-pool.ts), with its time limit. */
export async function readRows<R = Record<string, unknown>>(engine: Pick<Engine, 'db' | 'reads'>, query: Compilable): Promise<R[]> {
  if (engine.reads) return engine.reads.rows<R>(query.compile());
  return (await engine.db.executeQuery<R>(query.compile())).rows;
}

/** The relation aliases (r_<name>) a set of column references reaches into. */
export function relationsOf(refs: string[]): string[] {
  return [...new Set(refs.filter((r) => r.startsWith('r_')).map((r) => r.slice(2, r.indexOf('.'))))];
}

function matchingRows(engine: Pick<Engine, 'models'>, model: EntityModel, options: CountOptions, db: Kysely<any>) {
  let inner = db.selectFrom(`${model.table} as t`);
  for (const relation of model.manifest.relations ?? []) {
    if (!options.relations.includes(relation.name)) continue;
    const target = engine.models.get(relation.entity)!;
    inner = inner.leftJoin(`${target.table} as r_${relation.name}`, `r_${relation.name}.id`, `t.${relation.field}`);
  }
  return options.where(inner.select(sql.lit(1).as('one')));
}

/**
 * The count of a list call. A page that is not full already tells the exact count, so no query runs; otherwise one
 * `count(*)` over at most limit + 1 rows, with no relation join unless a filter uses it. A capped count, or an exact
 * one of KEPT_EXACT_COUNT rows or more, is kept per filter values (paging does not recount it) until a write to the
 * entity or a minute has passed.
 */
export async function countList(engine: Pick<Engine, 'changes' | 'db' | 'listCountLimit' | 'models'>, model: EntityModel, options: CountOptions, db: Kysely<any> = engine.db): Promise<ListCount> {
  const { offset, pageSize, rowsOnPage } = options;
  if (rowsOnPage > 0 && rowsOnPage < pageSize) return { count: offset + rowsOnPage };
  if (rowsOnPage === 0 && offset === 0) return { count: 0 };
  const limit = engine.listCountLimit ?? DEFAULT_LIST_COUNT_LIMIT;
  const cache = cacheOf(engine, model.entity);
  const cached = cache.kept.get(options.key);
  if (cached && Date.now() - cached.at < CAPPED_COUNT_TTL_MS) return cached.capped ? { count: cached.count, countCapped: true } : { count: cached.count };
  const writes = cache.writes;
  const matching = (options.matching?.() ?? matchingRows(engine, model, options, db)).limit(limit + 1);
  const [row] = await readRows<{ count: number | string }>(engine, db.selectFrom(matching.as('m')).select(sql<number>`count(*)`.as('count')));
  const counted = Number(row?.count ?? 0);
  const capped = counted > limit;
  cache.kept.delete(options.key);
  if ((capped || counted >= KEPT_EXACT_COUNT) && writes === cache.writes) {
    if (cache.kept.size >= CACHED_FILTERS_PER_ENTITY) cache.kept.delete(cache.kept.keys().next().value!);
    cache.kept.set(options.key, { count: capped ? limit : counted, capped, at: Date.now() });
  }
  return capped ? { count: limit, countCapped: true } : { count: counted };
}
