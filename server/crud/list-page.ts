// The rows of one list page (issue 14), in the list's order: the sort field (or none), then id in the same direction,
// nulls where the database puts them (SQLite: first ascending, last descending; PostgreSQL: the other way round).
// Every way below answers exactly the rows and order of `ORDER BY field dir, t.id dir LIMIT size OFFSET offset`;
// each is chosen only where an index can serve it:
//   - a cursor (`after`, the last row's sort value and id, answered as `next` by the previous page) turns "the next
//     page" into a keyset query, which reads only the page's rows however deep it is;
//   - a deep OFFSET skips over ids only (a covering index scan), then reads the page's rows by id; the positions of
//     the rows it read are kept (until a write to the entity), so a page by number near one already read is a keyset
//     query from there that skips only the rows in between;
//   - a sort by a relation's field (whitelabel.name) walks the relation's few target rows in that field's order and
//     takes each group's rows from the (fk, id) index, instead of sorting every row of the join;
//   - on SQLite, contains filters on an FTS5 trigram table with the list ordered by id read the FTS table in rowid
//     order with the LIMIT pushed into it, instead of materialising every match.
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { fieldError } from '../errors.ts';
import type { ListDecl } from '../../kernel/manifest/types.ts';
import type { Engine } from '../core/context.ts';
import type { EntityModel } from '../model/model.ts';
import { columnRef, selectRows } from '../core/rows.ts';
import { keptCapped, keptPerEntity, keptRead, readRows, type KeptPerEntity } from './list-query.ts';
import { applyFilters, likeTest, type FilterParam } from './kinds/filters.ts';
import { ftsLike, ftsTable } from '../db/text-search.ts';

type Query = SelectQueryBuilder<any, any, any>;
type Row = Record<string, unknown>;
type Order = NonNullable<ListDecl['defaultOrder']>;
type Key = string | number | boolean | null;

/** Past this offset a page first finds its ids alone (an index-only skip), then reads their rows. */
const DEFERRED_OFFSET = 500;
/** A relation sort walks its target rows only when they are this few (whitelabels, platforms). */
const WALKED_TARGETS = 1000;
const SORT_KEY = '__sort';
/** The longest cursor answered (the `after` parameter accepts twice as long). */
const MAX_CURSOR = 2000;

export interface PageRequest {
  /** The filters with a value, and the call's input they read it from. */
  active: FilterParam[];
  input: Record<string, unknown>;
  order?: Order;
  pageSize: number;
  offset: number;
  /** The `after` parameter as sent (validated here). */
  after?: string;
  /** Identifies the filters' values: a cursor of other filters is not used. */
  filterKey: string;
}

export interface Page {
  rows: Row[];
  /** The cursor of the next page, when this one is full. */
  next?: string;
}

interface Cursor {
  value: Key;
  id: number;
}

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

const orderName = (order: Order | undefined) => `${order?.field ?? ''}:${order?.direction ?? 'asc'}`;

function encodeCursor(request: PageRequest, value: Key, id: number): string {
  return Buffer.from(JSON.stringify([orderName(request.order), hash(request.filterKey), value, id])).toString('base64url');
}

/** The cursor of `after`, or undefined when it belongs to another order or other filters (the page number applies). */
function decodeCursor(request: PageRequest): Cursor | undefined {
  if (!request.after) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(request.after, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.length === 4 &&
    typeof parsed[0] === 'string' &&
    typeof parsed[1] === 'string' &&
    (parsed[2] === null || ['string', 'number', 'boolean'].includes(typeof parsed[2])) &&
    Number.isSafeInteger(parsed[3]);
  if (!valid) throw fieldError('after', 'after: is not a cursor a list answered (send the `next` of the previous page, or only page)');
  const [order, filters, value, id] = parsed as [string, string, Key, number];
  if (order !== orderName(request.order) || filters !== hash(request.filterKey)) return undefined;
  return { value, id };
}

/**
 * On SQLite, when every active filter is a contains filter of the entity's FTS5 trigram table: their LIKEs as one
 * condition, which holds on the FTS5 table and on the entity's own table alike (unqualified column names).
 */
function ftsCondition(engine: Pick<Engine, 'caps'>, model: EntityModel, active: FilterParam[], input: Record<string, unknown>): Expression<SqlBool> | undefined {
  if (engine.caps.textSearch !== 'fts-table' || !active.length) return undefined;
  const likes = active.map((f) => (f.decl.op === 'contains' && !f.decl.field.includes('.') ? ftsLike(model, f.decl.field, String(input[f.param])) : undefined));
  if (likes.some((like) => !like)) return undefined;
  return sql<SqlBool>`${sql.join(likes as Expression<unknown>[], sql` and `)}`;
}

/**
 * On SQLite, the active filters split into the contains filters the entity's FTS5 trigram table serves (their LIKEs
 * as one condition on the columns of `qualifier`) and the others; undefined when none is served by it, or a filter
 * reaches into a relation (those need the joins the queries below do not make).
 */
function ftsSplit(engine: Pick<Engine, 'caps'>, model: EntityModel, active: FilterParam[], input: Record<string, unknown>, qualifier: string) {
  if (engine.caps.textSearch !== 'fts-table' || active.some((f) => f.ref.startsWith('r_'))) return undefined;
  const likes: Expression<unknown>[] = [];
  const rest: FilterParam[] = [];
  for (const f of active) {
    const like = f.decl.op === 'contains' && !f.decl.field.includes('.') ? ftsLike(model, f.decl.field, String(input[f.param]), qualifier) : undefined;
    if (like) likes.push(like);
    else rest.push(f);
  }
  if (!likes.length) return undefined;
  return { likes: sql<SqlBool>`${sql.join(likes, sql` and `)}`, fields: active.filter((f) => !rest.includes(f)).map((f) => f.decl.field), rest };
}

/**
 * The rows matching the filters as `t.id`, found from the FTS5 table's matches (read first: CROSS JOIN keeps SQLite to
 * that order) each looked up by id and tested against the other filters: as many rows are read as the contains
 * filters match, where `t.id in (select rowid ...)` let SQLite walk an index of the equality filter or the sort instead
 * and test every row of it (the users of one experiment with a contains filter: every user of the experiment).
 */
function ftsDrivenIds(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, active: FilterParam[], input: Record<string, unknown>): Query | undefined {
  const split = ftsSplit(engine, model, active, input, 'f');
  if (!split) return undefined;
  const query = engine.db.selectFrom(`${ftsTable(model)} as f`).crossJoin(`${model.table} as t`).select('t.id').whereRef('t.id', '=', 'f.rowid').where(split.likes);
  return applyFilters(engine, split.rest, input, query).query;
}

/**
 * On SQLite, when the active filters include contains filters of the entity's FTS5 trigram table: the matching rows
 * as a query read from that table (which a count or a page in rowid order reads lazily); over that table alone when
 * every active filter is such a filter.
 */
export function ftsMatching(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, active: FilterParam[], input: Record<string, unknown>): Query | undefined {
  const condition = ftsCondition(engine, model, active, input);
  if (condition) return engine.db.selectFrom(ftsTable(model)).select('rowid').where(condition);
  return ftsDrivenIds(engine, model, active, input);
}

/** A contains filter on the sort column tests each of its distinct values when it has at most this many (sortedValuesWalk). */
const TESTED_VALUES = 200;
/** How many of the newest rows a contains filter with many matches tests before it reads the FTS5 index. */
const PROBED_ROWS = 2000;
/** Contains filters matching at most this many rows of the FTS5 table read their matches and sort them (fewSorted). */
const FEW_MATCHES = 200;
/** Filter values and whether their contains filters match at most FEW_MATCHES rows, until a write. */
const fewMatchesOf = keptPerEntity<boolean>();
const FEW_MATCHES_PER_ENTITY = 200;
/** Filter values whose newest rows held less than a page: the FTS5 index serves them until a write. */
const probeMissesOf = keptPerEntity<true>();
const PROBE_MISSES_PER_ENTITY = 200;
/** Sort columns found to hold more than TESTED_VALUES distinct values (sortedValuesWalk), until a write. */
const manyValuesOf = keptPerEntity<true>();
/**
 * The sort column's values among the rows a list's contains filters match (matchedSortValues), until a write; null: no
 * restriction (more values than TESTED_VALUES, or a null among them).
 */
const matchedValuesOf = keptPerEntity<Key[] | null>();
/** Whether a list's first rows in its order hold less than a page of its matches (sparseInOrder), until a write. */
const sparseOf = keptPerEntity<boolean>();
const MATCHED_VALUES_PER_ENTITY = 200;

type Targets = { id: number; v: Key | Date }[];
/** The related rows of a relation sort are read again after a write to their entity, or after this long. */
const TARGETS_TTL_MS = 5_000;
const targetsOf = keptPerEntity<{ targets: Targets; at: number }>();

/** A relation sort's target rows in order, kept per entity until a write to it (they are few and read per call). */
async function keptTargets(engine: Pick<Engine, 'changes' | 'db'>, entity: string, what: string, read: () => Promise<Targets>): Promise<Targets> {
  const kept = targetsOf(engine, entity);
  const hit = kept.kept.get(what);
  if (hit && Date.now() - hit.at < TARGETS_TTL_MS) return hit.targets;
  const before = kept.writes;
  const targets = await read();
  // A write that committed while they were read makes them stale at once.
  if (kept.writes === before) kept.kept.set(what, { targets, at: Date.now() });
  return targets;
}

/** A row's place in one list (order and filters): at 0-based position `pos`, sort value `value` and id `id`. */
interface Anchor extends Cursor {
  pos: number;
}
/** Kept places are forgotten at a write to the entity, or after this long (a write that bypassed the server). */
const ANCHORS_TTL_MS = 60_000;
const ANCHORS_PER_LIST = 256;
const ANCHOR_LISTS_PER_ENTITY = 200;
type EntityAnchors = KeptPerEntity<{ anchors: Anchor[]; at: number }>;
const anchorsOf = keptPerEntity<{ anchors: Anchor[]; at: number }>();

/** The kept place nearest before (or at) `pos` in list `key`. */
function anchorBefore(kept: EntityAnchors, key: string, pos: number): Anchor | undefined {
  const list = kept.kept.get(key);
  if (!list) return undefined;
  if (Date.now() - list.at > ANCHORS_TTL_MS) {
    kept.kept.delete(key);
    return undefined;
  }
  let best: Anchor | undefined;
  for (const anchor of list.anchors) if (anchor.pos <= pos && (!best || anchor.pos > best.pos)) best = anchor;
  return best;
}

function keepAnchors(kept: EntityAnchors, key: string, anchors: Anchor[]): void {
  let list = kept.kept.get(key);
  if (!list || list.anchors.length + anchors.length > ANCHORS_PER_LIST) {
    if (!list && kept.kept.size >= ANCHOR_LISTS_PER_ENTITY) kept.kept.delete(kept.kept.keys().next().value!);
    list = { anchors: [], at: Date.now() };
    kept.kept.set(key, list);
  }
  for (const anchor of anchors) if (!list.anchors.some((a) => a.pos === anchor.pos)) list.anchors.push(anchor);
}

export class ListPager {
  private readonly direction: 'asc' | 'desc';
  private readonly cmp: '>' | '<';
  /** Where nulls of the sort field come: the database's default for the direction. */
  private readonly nullsFirst: boolean;
  private readonly field?: string;

  constructor(
    private readonly engine: Pick<Engine, 'caps' | 'changes' | 'db' | 'models'>,
    private readonly model: EntityModel,
    private readonly request: PageRequest,
  ) {
    this.direction = request.order?.direction ?? 'asc';
    this.cmp = this.direction === 'asc' ? '>' : '<';
    this.nullsFirst = !engine.caps.nullsSortHigh === (this.direction === 'asc');
    this.field = request.order && request.order.field !== 'id' ? request.order.field : undefined;
  }

  async page(): Promise<Page> {
    const cursor = decodeCursor(this.request);
    if (this.field?.includes('.')) {
      const walked = await this.relationWalk(cursor);
      if (walked) return walked;
      return this.plain();
    }
    if (!this.field) {
      const fts = await this.ftsById(cursor);
      if (fts) return fts;
    }
    if (this.engine.caps.textSearch === 'trigram-index') {
      const walked = await this.sortedValuesWalk(cursor);
      if (walked) return walked;
      const matched = await this.matchedValuesWalk(cursor);
      if (matched) return matched;
    }
    const mixed = await this.ftsSorted(cursor);
    if (mixed) return mixed;
    if (cursor) return this.keyset(cursor);
    return this.plain();
  }

  /** Every row column plus the relations' shown fields, with the filters applied. */
  private rowsQuery(filters = this.request.active): Query {
    return applyFilters(this.engine, filters, this.request.input, selectRows(this.engine, this.model)).query;
  }

  /** `table as t` joined only to the relations the filters reach into, with the filters applied. */
  private filteredIds(): Query {
    let query: Query = this.engine.db.selectFrom(`${this.model.table} as t`);
    for (const relation of this.model.manifest.relations ?? []) {
      if (!this.request.active.some((f) => f.ref.startsWith(`r_${relation.name}.`))) continue;
      const target = this.engine.models.get(relation.entity)!;
      query = query.leftJoin(`${target.table} as r_${relation.name}`, `r_${relation.name}.id`, `t.${relation.field}`);
    }
    return applyFilters(this.engine, this.request.active, this.request.input, query).query;
  }

  private ordered(query: Query, withField = true): Query {
    if (withField && this.field) query = query.orderBy(columnRef(this.engine, this.model, this.field).ref, this.direction);
    return query.orderBy('t.id', this.direction);
  }

  /** The sort value as a cursor carries it: PostgreSQL's timestamps as their text (a Date would lose the zone). */
  private sortValue(ref: string, kind: string) {
    return this.engine.caps.timestampsAsDates && kind === 'timestamp' ? sql`cast(${sql.ref(ref)} as text)` : sql.ref(ref);
  }

  private finish(rows: Row[], valueOf: (row: Row) => Key): Page {
    const { pageSize } = this.request;
    const last = rows.length === pageSize ? rows[rows.length - 1] : undefined;
    const cursor = last ? encodeCursor(this.request, valueOf(last), Number(last.id)) : undefined;
    // A cursor must fit a query string: past that (a sort by a long text), the next page goes by its number.
    const next = cursor && cursor.length <= MAX_CURSOR ? cursor : undefined;
    for (const row of rows) delete row[SORT_KEY];
    return next ? { rows, next } : { rows };
  }

  private withSortKey(query: Query): Query {
    if (!this.field) return query;
    const { ref, kind } = columnRef(this.engine, this.model, this.field);
    return query.select(this.sortValue(ref, kind).as(SORT_KEY));
  }

  private ownValue = (row: Row): Key => (this.field ? (row[SORT_KEY] as Key) : null);

  /** The page's rows in list order, with the sort value a cursor carries. */
  private pageRows = (): Query => this.pageRowsOf();
  private pageRowsOf = (filters = this.request.active): Query => this.withSortKey(this.ordered(this.rowsQuery(filters)));

  /** ORDER BY ... LIMIT ... OFFSET, the ids found first when the offset is deep. */
  private async plain(): Promise<Page> {
    const { pageSize, offset } = this.request;
    let query = this.pageRows();
    if (offset > DEFERRED_OFFSET && !this.field?.includes('.')) {
      const near = await this.nearDeepPage();
      if (near) return near;
      const ids = await this.deepIds();
      if (!ids.length) return { rows: [] };
      query = query.where('t.id', 'in', ids);
    } else query = query.limit(pageSize).offset(offset);
    const rows = await readRows<Row>(this.engine, query);
    if (this.field?.includes('.')) return { rows: this.stripped(rows) };
    return this.finish(rows, this.ownValue);
  }

  private stripped(rows: Row[]): Row[] {
    for (const row of rows) delete row[SORT_KEY];
    return rows;
  }

  /**
   * The rows after (value, id) in list order, as the conditions of index ranges read one after the other: by id alone,
   * or the non-null values and the nulls of the sort field.
   */
  private segmentsAfter(cursor: Cursor): ((q: Query) => Query)[] {
    if (!this.field) return [(q) => q.where('t.id', this.cmp, cursor.id)];
    const id = sql.ref('t.id');
    const column = sql.ref(columnRef(this.engine, this.model, this.field).ref);
    const cmp = sql.raw(this.cmp);
    const nulls = (after: boolean) => (q: Query) => q.where(after ? sql<SqlBool>`${column} is null and ${id} ${cmp} ${cursor.id}` : sql<SqlBool>`${column} is null`);
    const values = (after: boolean) => (q: Query) => q.where(after ? sql<SqlBool>`(${column}, ${id}) ${cmp} (${cursor.value}, ${cursor.id})` : sql<SqlBool>`${column} is not null`);
    return cursor.value === null ? (this.nullsFirst ? [nulls(true), values(false)] : [nulls(true)]) : this.nullsFirst ? [values(true)] : [values(true), nulls(false)];
  }

  /** The ids of the matching rows in list order, with the sort value as `v` (null when the list is ordered by id). */
  private idsQuery(): Query {
    const query = this.filteredIds().select('t.id');
    if (!this.field) return this.ordered(query.select(sql.lit(null).as('v')));
    const { ref, kind } = columnRef(this.engine, this.model, this.field);
    return this.ordered(query.select(this.sortValue(ref, kind).as('v')));
  }

  /** Where a deep page by number keeps the places it read, and what was written since; none for relation filters. */
  private places() {
    const kept = this.request.active.some((f) => f.ref.startsWith('r_')) ? undefined : anchorsOf(this.engine, this.model.entity);
    return { kept, key: `${orderName(this.request.order)}\n${this.request.filterKey}`, writes: kept?.writes };
  }

  /**
   * A deep page by number with a kept place at most DEFERRED_OFFSET rows before it (the same page again, or the next
   * one): its rows in one keyset query from there, as a cursor's page is read, instead of its ids first and then
   * their rows. Undefined when no place is that near.
   */
  private async nearDeepPage(): Promise<Page | undefined> {
    const { pageSize, offset } = this.request;
    const { kept, key, writes } = this.places();
    const anchor = kept && anchorBefore(kept, key, offset - 1);
    if (!kept || !anchor || offset - 1 - anchor.pos > DEFERRED_OFFSET) return undefined;
    const rows = await this.after<Row>(anchor, offset - 1 - anchor.pos, pageSize, this.pageRows);
    if (rows.length && writes === kept.writes) {
      const last = rows[rows.length - 1];
      keepAnchors(kept, key, [{ pos: offset + rows.length - 1, value: this.ownValue(last), id: Number(last.id) }]);
    }
    return this.finish(rows, this.ownValue);
  }

  /**
   * The ids of a deep page by number. From the nearest place this list already read before the page (a keyset query
   * that skips only the rows in between), or else by skipping ids from the start; the places read are kept until a
   * write to the entity. Lists filtered through a relation's field skip from the start (a write to the related
   * entity would move their rows unseen).
   */
  private async deepIds(): Promise<number[]> {
    const { pageSize, offset } = this.request;
    const { kept, key, writes } = this.places();
    const anchor = kept && anchorBefore(kept, key, offset - 1);
    type Found = { id: number; v: Key };
    let found: Found[];
    let first: number;
    if (anchor) {
      found = await this.after<Found>(anchor, offset - 1 - anchor.pos, pageSize, () => this.idsQuery());
      first = offset;
    } else {
      // One row more, the one before the page: the place a later call for this page starts from.
      found = await readRows<Found>(this.engine, this.idsQuery().limit(pageSize + 1).offset(offset - 1));
      first = offset - 1;
    }
    if (kept && found.length && writes === kept.writes) {
      const at = (i: number): Anchor => ({ pos: first + i, value: found[i].v, id: Number(found[i].id) });
      keepAnchors(kept, key, [at(0), at(found.length - 1)]);
    }
    return (anchor ? found : found.slice(1)).map((r) => Number(r.id));
  }

  /** `limit` rows of `query` (ids with their sort values, or whole rows) after `skip` more rows past (value, id), in list order. */
  private async after<R>(cursor: Cursor, skip: number, limit: number, query: () => Query): Promise<R[]> {
    const out: R[] = [];
    for (const segment of this.segmentsAfter(cursor)) {
      const need = limit - out.length;
      if (need <= 0) break;
      const page = segment(query()).limit(need);
      const found = await readRows<R>(this.engine, skip ? page.offset(skip) : page);
      if (!found.length && skip) {
        // The range holds no more rows than skip: count them to skip the whole range.
        skip -= await this.countUpTo(segment, skip);
        continue;
      }
      skip = 0;
      out.push(...found);
    }
    return out;
  }

  /** The rows after the cursor's (value, id): the non-null values and the nulls are two index ranges, read in order. */
  private async keyset(cursor: Cursor): Promise<Page> {
    return this.finish(await this.after<Row>(cursor, 0, this.request.pageSize, this.pageRows), this.ownValue);
  }

  /**
   * On SQLite, a list ordered by id whose filters are all contains filters on the entity's FTS5 trigram table: the
   * page's rowids come from the FTS table in rowid order with the LIMIT pushed into it.
   */
  private async ftsById(cursor: Cursor | undefined): Promise<Page | undefined> {
    const { pageSize, offset } = this.request;
    const condition = ftsCondition(this.engine, this.model, this.request.active, this.request.input);
    if (!condition) return undefined;
    // Few matches: read them all and sort them by id. FTS5 reads an AND of trigrams backwards (rowid desc) at 7 times
    // the cost of forwards (a whole e-mail at 100,000 rows: 2.9 against 0.4 ms; the list 551 -> 1,116 req/s).
    if (await this.fewMatches()) return this.fewSorted(cursor);
    const matching = this.engine.db.selectFrom(ftsTable(this.model)).select('rowid').where(condition);
    if (!offset || cursor) {
      const probed = await this.newestProbe(cursor);
      if (probed) return probed;
    }
    let ids = matching.orderBy('rowid', this.direction).limit(pageSize);
    if (cursor) ids = ids.where('rowid', this.cmp, cursor.id);
    else if (offset) ids = ids.offset(offset);
    const rows = await readRows<Row>(this.engine, this.ordered(this.rowsQuery([])).where('t.id', 'in', ids));
    return this.finish(rows, this.ownValue);
  }

  /**
   * A first page (or a cursor's next page) ordered by id whose contains filters match many rows: the newest
   * PROBED_ROWS rows from the cursor on, tested with the filters' LIKE itself (the rows FTS5 answers, as SQLite checks
   * its LIKE on them too), hold a full page whenever one row in a hundred matches, and reading them costs a tenth of
   * reading the FTS5 index backwards (0.09 against 0.4-1 ms at a million rows). Tried only when the kept count says
   * more rows match than the count limit, and not again for these filter values until a write once it came up short.
   */
  private async newestProbe(cursor: Cursor | undefined): Promise<Page | undefined> {
    const { pageSize, filterKey } = this.request;
    const entity = this.model.entity;
    const missed = probeMissesOf(this.engine, entity);
    if (keptCapped(this.engine, entity, filterKey) !== true || missed.kept.has(filterKey)) return undefined;
    const writes = missed.writes;
    const { active, input } = this.request;
    // Only what the filters test is read of those rows.
    const fields = [...new Set(active.map((f) => `t.${f.decl.field}`))];
    let newest = this.engine.db.selectFrom(`${this.model.table} as t`).select(['t.id', ...fields]).orderBy('t.id', this.direction).limit(PROBED_ROWS);
    if (cursor) newest = newest.where('t.id', this.cmp, cursor.id);
    const ids = this.engine.db
      .selectFrom(newest.as('n'))
      .select('n.id')
      .where(ftsCondition(this.engine, this.model, active, input)!)
      .orderBy('n.id', this.direction)
      .limit(pageSize);
    const rows = await readRows<Row>(this.engine, this.ordered(this.rowsQuery([])).where('t.id', 'in', ids));
    if (rows.length === pageSize) return this.finish(rows, this.ownValue);
    if (writes === missed.writes) {
      if (missed.kept.size >= PROBE_MISSES_PER_ENTITY) missed.kept.clear();
      missed.kept.set(filterKey, true);
    }
    return undefined;
  }

  /**
   * On SQLite, contains filters of the FTS5 table in a list sorted by a column, or beside other filters (the fixed
   * experiment of /abtesting/:id). When the contains filters match at most FEW_MATCHES rows of the FTS5 table, those
   * are read and sorted (fewSorted). When more rows match than the count limit, the rows in list order tested with
   * the filters' LIKE until the page is full; when that is not known yet, the first PROBED_ROWS rows in list order so
   * tested, which hold the first page whenever one row in a hundred matches; otherwise (at most the count limit
   * match), or when they came up short, the page's ids are found among the FTS5 matches and sorted (ftsDrivenIds).
   * Undefined for a deep page of a filter matching more than the count limit: the other ways below serve it.
   */
  private async ftsSorted(cursor: Cursor | undefined): Promise<Page | undefined> {
    const { active, input, pageSize, offset, filterKey } = this.request;
    const ids = ftsDrivenIds(this.engine, this.model, active, input);
    if (!ids) return undefined;
    if (await this.fewMatches()) return this.fewSorted(cursor);
    const sameColumn = await this.sortedValuesWalk(cursor);
    if (sameColumn) return sameColumn;
    const capped = keptCapped(this.engine, this.model.entity, filterKey);
    if (capped === true) {
      // More rows match than the count limit: the rows in list order, each tested with the filters' LIKE, until the
      // page is full (the LIKE the FTS5 table answers, which SQLite checks on its rows too). Sorting every match
      // would cost more the more rows match.
      if (offset > DEFERRED_OFFSET) return undefined;
      const split = ftsSplit(this.engine, this.model, active, input, 't')!;
      // When the first rows in list order hold few matches: only the sort values that hold matches, when they are few.
      const values = (await this.sparseInOrder()) ? await this.matchedSortValues() : undefined;
      const scanned = () => {
        const query = this.rowsQuery(split.rest).where(split.likes);
        return this.withSortKey(this.ordered(values ? query.where(`t.${this.field}`, 'in', values) : query));
      };
      const rows = cursor ? await this.after<Row>(cursor, 0, pageSize, scanned) : await readRows<Row>(this.engine, scanned().limit(pageSize).offset(offset));
      return this.finish(rows, this.ownValue);
    }
    if (capped === undefined && !offset && !cursor) {
      const probed = await this.sortedProbe();
      if (probed) return probed;
    }
    const ordered = () => this.ordered(ftsDrivenIds(this.engine, this.model, active, input)!);
    const found = cursor ? await this.after<{ id: number }>(cursor, 0, pageSize, ordered) : await readRows<{ id: number }>(this.engine, ordered().limit(pageSize).offset(offset));
    if (!found.length) return { rows: [] };
    const rows = await readRows<Row>(this.engine, this.pageRowsOf([]).where('t.id', 'in', found.map((r) => Number(r.id))));
    return this.finish(rows, this.ownValue);
  }

  /**
   * Whether the first PROBED_ROWS rows in list order (the filters other than contains applied) hold less than a page
   * of the contains filters' matches: the list's own walk in that order then reads far more rows than it returns, and
   * knowing which sort values hold matches (matchedSortValues, which reads every match once) pays. Kept per order and
   * filter values until a write. False without an own sort column, or with a filter on a relation.
   */
  private async sparseInOrder(): Promise<boolean> {
    const { active, input, pageSize, filterKey } = this.request;
    const field = this.field;
    if (!field || field.includes('.') || active.some((f) => f.ref.startsWith('r_') || f.decl.field.includes('.'))) return false;
    return keptRead(sparseOf(this.engine, this.model.entity), `${orderName(this.request.order)}\n${filterKey}`, MATCHED_VALUES_PER_ENTITY, async () => {
      const contains = active.filter((f) => f.decl.op === 'contains');
      const rest = active.filter((f) => !contains.includes(f));
      const fields = [...new Set([...contains.map((f) => f.decl.field), field])].map((f) => `t.${f}`);
      const first = this.ordered(applyFilters(this.engine, rest, input, this.engine.db.selectFrom(`${this.model.table} as t`).select(['t.id', ...fields])).query).limit(PROBED_ROWS);
      const likes = contains.map((f) => likeTest(this.engine.caps, `n.${f.decl.field}`, 'contains', String(input[f.param])));
      const matched = likes.length ? sql<SqlBool>`${sql.join(likes, sql` and `)}` : sql<SqlBool>`1 = 1`;
      const counted = this.engine.db.selectFrom(first.as('n')).select([sql<number>`count(*)`.as('seen'), sql<number>`sum(case when ${matched} then 1 else 0 end)`.as('hits')]);
      const [{ seen, hits }] = await readRows<{ seen: number; hits: number | null }>(this.engine, counted);
      return Number(seen) >= PROBED_ROWS && Number(hits ?? 0) < pageSize;
    });
  }

  /**
   * The values of the sort column that hold rows matching the filters, in no order, when there are at most
   * TESTED_VALUES of them (and none is null); undefined otherwise. The rows of a sort value that holds no match are then
   * never read: walking the sort in order testing each row read every row of the values before the first match, when
   * the filtered column goes with the sort column (the goals of an experiment are its own, so the goals named like
   * "trai" sorted by experiment read every goal of the experiments before the first with a trailer goal: 280 req/s at
   * 100,000 goals). Read once from the matches (the other filters applied) and kept per filter values until a write.
   */
  private async matchedSortValues(): Promise<Key[] | undefined> {
    const field = this.field;
    if (!field || field.includes('.')) return undefined;
    const { active, input, filterKey } = this.request;
    const values = await keptRead(matchedValuesOf(this.engine, this.model.entity), `${field}\n${filterKey}`, MATCHED_VALUES_PER_ENTITY, async () => {
      // SQLite: from the FTS5 table's matches, each looked up by id; PostgreSQL: the filters as the list applies them
      // (the trigram index finds the matches).
      const split = ftsSplit(this.engine, this.model, active, input, 'f');
      const matches = split
        ? applyFilters(this.engine, split.rest, input, this.engine.db.selectFrom(`${ftsTable(this.model)} as f`).crossJoin(`${this.model.table} as t`).whereRef('t.id', '=', 'f.rowid').where(split.likes)).query
        : this.filteredIds();
      const distinct = matches.select(`t.${field} as v`).distinct().limit(TESTED_VALUES + 1);
      const found = (await readRows<{ v: Key }>(this.engine, distinct)).map((r) => r.v);
      return found.length > TESTED_VALUES || found.includes(null) || !found.length ? null : found;
    });
    return values ?? undefined;
  }

  /**
   * On PostgreSQL, contains filters matching more rows than the count limit in a list sorted by one of its own columns,
   * whose first rows in that order hold few matches (sparseInOrder): the rows of the sort values that hold matches
   * (matchedSortValues) in list order, each tested with the filters' ILIKE, until the page is full. The trigram index
   * found every match and PostgreSQL sorted them all (the goals named like "trai" sorted by experiment: 283 req/s at
   * 100,000 goals). The ILIKE is not the trigram index's lower() LIKE, so the planner walks the sort's (column, id)
   * index instead of that one. Undefined otherwise, and for a deep page by number.
   */
  private async matchedValuesWalk(cursor: Cursor | undefined): Promise<Page | undefined> {
    const { active, input, pageSize, offset, filterKey } = this.request;
    const field = this.field;
    if (!field || field.includes('.') || (offset > DEFERRED_OFFSET && !cursor)) return undefined;
    const contains = active.filter((f) => f.decl.op === 'contains');
    // sparseInOrder is false with a filter on a relation, which this walk's query does not join.
    if (!contains.length || keptCapped(this.engine, this.model.entity, filterKey) !== true || !(await this.sparseInOrder())) return undefined;
    const values = await this.matchedSortValues();
    if (!values) return undefined;
    const rest = active.filter((f) => !contains.includes(f));
    const walked = () => {
      let query = this.rowsQuery(rest).where(`t.${field}`, 'in', values);
      for (const f of contains) query = query.where(likeTest(this.engine.caps, `t.${f.decl.field}`, 'contains', String(input[f.param])));
      return this.withSortKey(this.ordered(query));
    };
    const rows = cursor ? await this.after<Row>(cursor, 0, pageSize, walked) : await readRows<Row>(this.engine, walked().limit(pageSize).offset(offset));
    return this.finish(rows, this.ownValue);
  }

  /**
   * Whether the contains filters match at most FEW_MATCHES rows of the FTS5 table (the other filters aside): a count
   * of its matches that stops past that, cheap when they are few, kept per filter values until a write. Skipped
   * when a kept count says more rows match than the count limit.
   */
  private async fewMatches(): Promise<boolean> {
    const { active, input, filterKey } = this.request;
    const entity = this.model.entity;
    const kept = fewMatchesOf(this.engine, entity);
    if (!kept.kept.has(filterKey) && keptCapped(this.engine, entity, filterKey) === true) return false;
    return keptRead(kept, filterKey, FEW_MATCHES_PER_ENTITY, async () => {
      const split = ftsSplit(this.engine, this.model, active, input, 'f')!;
      const matches = this.engine.db.selectFrom(`${ftsTable(this.model)} as f`).select('f.rowid').where(split.likes).limit(FEW_MATCHES + 1);
      const [{ n }] = await readRows<{ n: number }>(this.engine, this.engine.db.selectFrom(matches.as('m')).select(sql<number>`count(*)`.as('n')));
      return Number(n) <= FEW_MATCHES;
    });
  }

  /**
   * The page of a list whose contains filters match few rows (fewMatches): its ids found among the FTS5 matches (read
   * first, each looked up by id and tested against the other filters) and sorted, its rows read by those ids in the
   * same query. Walking the sort's index in order testing each row, or the sort column's distinct values, read far
   * more rows than match.
   */
  private async fewSorted(cursor: Cursor | undefined): Promise<Page> {
    const { active, input, pageSize, offset } = this.request;
    const ids = () => this.ordered(ftsDrivenIds(this.engine, this.model, active, input)!);
    const rowsOf = (found: Query) => readRows<Row>(this.engine, this.pageRowsOf([]).where('t.id', 'in', found));
    if (!cursor) return this.finish(await rowsOf(ids().limit(pageSize).offset(offset)), this.ownValue);
    const rows: Row[] = [];
    for (const segment of this.segmentsAfter(cursor)) {
      const need = pageSize - rows.length;
      if (need <= 0) break;
      rows.push(...(await rowsOf(segment(ids()).limit(need))));
    }
    return this.finish(rows, this.ownValue);
  }

  /**
   * One contains filter on the very column the list is sorted by (the goals named like "sett", sorted by goal name;
   * the users on a "tiz" platform, sorted by platform): when that column holds at most TESTED_VALUES distinct values,
   * they are read in order (one index seek each) and tested with the filter, and the list is read from the matching
   * values' ranges of the (filters, sort, id) index only, every row of which matches. Walking the sort in order and
   * testing each row read past every row of the values before the first match (750,000 of 1,000,000 goals before
   * "settingsOpened"), the FTS5 matches sorted were every row of the matching values, and PostgreSQL's trigram index
   * found every matching row to sort them (84 req/s at 100,000 goals). A column found to hold more values is not
   * walked again until a write. Undefined then, when another contains filter is active, or a deep page goes by number.
   */
  private async sortedValuesWalk(cursor: Cursor | undefined): Promise<Page | undefined> {
    const { pageSize, offset } = this.request;
    const field = this.field;
    if (!field || field.includes('.') || (offset > DEFERRED_OFFSET && !cursor)) return undefined;
    const tested = this.valuesFilter(field);
    if (!tested) return undefined;
    const many = manyValuesOf(this.engine, this.model.entity);
    if (many.kept.has(field)) return undefined;
    const writes = many.writes;
    const table = this.model.table;
    const column = sql.ref(field);
    // The column's distinct values in order, each found by one seek of its (column, id) index, and the test on each.
    // SQLite bounds the recursion inside it; PostgreSQL refuses a LIMIT there and computes only the rows read.
    const sqlite = this.engine.caps.textSearch === 'fts-table';
    const values = sql<{ x: Key; m: number | boolean | null }>`with recursive v(${column}) as (
        select min(${column}) from ${sql.table(table)}
        union all
        select (select min(${column}) from ${sql.table(table)} where ${column} > v.${column}) from v where v.${column} is not null${sqlite ? sql` limit ${TESTED_VALUES + 1}` : sql``}
      ) select v.${column} as x, ${tested.like} as m from v where v.${column} is not null limit ${TESTED_VALUES + 1}`;
    const found = await readRows<{ x: Key; m: number | boolean | null }>(this.engine, { compile: () => values.compile(this.engine.db) });
    if (found.length > TESTED_VALUES) {
      if (writes === many.writes) many.kept.set(field, true);
      return undefined;
    }
    const matching = found.filter((v) => v.m).map((v) => v.x);
    if (!matching.length) return { rows: [] };
    const walked = () => this.withSortKey(this.ordered(this.rowsQuery(tested.rest).where(`t.${field}`, 'in', matching)));
    const rows = cursor ? await this.after<Row>(cursor, 0, pageSize, walked) : await readRows<Row>(this.engine, walked().limit(pageSize).offset(offset));
    return this.finish(rows, this.ownValue);
  }

  /**
   * The one contains filter on the sort column as a test of the walk's values (`v.<field>`), and the other filters;
   * undefined unless it is the only contains filter (on SQLite: of the FTS5 table) and no filter reaches a relation.
   */
  private valuesFilter(field: string): { like: Expression<SqlBool>; rest: FilterParam[] } | undefined {
    const { active, input } = this.request;
    if (this.engine.caps.textSearch === 'fts-table') {
      const split = ftsSplit(this.engine, this.model, active, input, 'v');
      return split && split.fields.length === 1 && split.fields[0] === field ? { like: split.likes, rest: split.rest } : undefined;
    }
    const contains = active.filter((f) => f.decl.op === 'contains');
    if (contains.length !== 1 || contains[0].decl.field !== field || active.some((f) => f.ref.startsWith('r_'))) return undefined;
    // The filter's own test without its index: ILIKE gives the rows its trigram index's lower() LIKE gives.
    const like = likeTest(this.engine.caps, `v.${field}`, 'contains', String(input[contains[0].param]));
    return { like, rest: active.filter((f) => f !== contains[0]) };
  }

  /** The first page from the first PROBED_ROWS rows in list order (see ftsSorted); undefined when they hold less. */
  private async sortedProbe(): Promise<Page | undefined> {
    const { active, input, pageSize, filterKey } = this.request;
    const entity = this.model.entity;
    const missed = probeMissesOf(this.engine, entity);
    const key = `${orderName(this.request.order)}\n${filterKey}`;
    if (missed.kept.has(key)) return undefined;
    const writes = missed.writes;
    const split = ftsSplit(this.engine, this.model, active, input, 'n')!;
    // Only what the filters test and the sort reads of those rows.
    const fields = [...new Set([...split.fields, ...(this.field ? [this.field] : [])])].map((f) => `t.${f}`);
    const first = this.ordered(applyFilters(this.engine, split.rest, input, this.engine.db.selectFrom(`${this.model.table} as t`).select(['t.id', ...fields])).query).limit(PROBED_ROWS);
    let ids: Query = this.engine.db.selectFrom(first.as('n')).select('n.id').where(split.likes);
    if (this.field) ids = ids.orderBy(`n.${this.field}`, this.direction);
    ids = ids.orderBy('n.id', this.direction).limit(pageSize);
    const rows = await readRows<Row>(this.engine, this.pageRowsOf([]).where('t.id', 'in', ids));
    if (rows.length === pageSize) return this.finish(rows, this.ownValue);
    // Fewer rows than PROBED_ROWS pass the other filters (one user's goals): the probe saw them all, its rows are the list.
    const seen = this.engine.db.selectFrom(first.clearSelect().select(sql.lit(1).as('one')).as('s')).select(sql<number>`count(*)`.as('n'));
    const [{ n }] = await readRows<{ n: number }>(this.engine, seen);
    if (Number(n) < PROBED_ROWS) return this.finish(rows, this.ownValue);
    if (writes === missed.writes) {
      if (missed.kept.size >= PROBE_MISSES_PER_ENTITY) missed.kept.clear();
      missed.kept.set(key, true);
    }
    return undefined;
  }

  /** The matching rows (filters, count) of the list without its relation joins, for counting a group. */
  private async countUpTo(where: (q: Query) => Query, limit: number): Promise<number> {
    const inner = where(this.filteredIds().select(sql.lit(1).as('one'))).limit(limit);
    const [row] = await readRows<{ count: number | string }>(this.engine, this.engine.db.selectFrom(inner.as('m')).select(sql<number>`count(*)`.as('count')));
    return Number(row?.count ?? 0);
  }

  /**
   * A sort by a relation's field: the target rows in that field's order, grouped by equal values (the rows of a group
   * are in id order, as ties are), nulls (no related row, or a null value) where the database puts them. Each group's
   * rows come from the (fk, id) index. Undefined when the relation has too many rows to walk.
   */
  private async relationWalk(cursor: Cursor | undefined): Promise<Page | undefined> {
    const dot = this.field!.indexOf('.');
    const relation = (this.model.manifest.relations ?? []).find((r) => r.name === this.field!.slice(0, dot))!;
    const target = this.engine.models.get(relation.entity)!;
    const column = this.field!.slice(dot + 1);
    const targets = await keptTargets(this.engine, target.entity, `${column}:${this.direction}`, () =>
      readRows<{ id: number; v: Key | Date }>(
        this.engine,
        this.engine.db
          .selectFrom(`${target.table} as g`)
          .select(['g.id', this.sortValue(`g.${column}`, target.kindOf(column)).as('v')])
          .orderBy(`g.${column}`, this.direction)
          .limit(WALKED_TARGETS + 1),
      ),
    );
    if (targets.length > WALKED_TARGETS) return undefined;
    const fk = sql.ref(`t.${relation.field}`);
    const groups: { value: Key; ids: number[] }[] = [];
    const nullIds: number[] = [];
    for (const { id, v } of targets) {
      const value = v instanceof Date ? v.toISOString() : v;
      if (value === null) nullIds.push(id);
      else if (groups.length && groups[groups.length - 1].value === value) groups[groups.length - 1].ids.push(id);
      else groups.push({ value, ids: [id] });
    }
    const nullGroup = { value: null, ids: nullIds };
    if (this.nullsFirst) groups.unshift(nullGroup);
    else groups.push(nullGroup);
    const inGroup = (group: { value: Key; ids: number[] }) => (q: Query) => {
      const ids = group.ids.length === 1 ? sql<SqlBool>`${fk} = ${group.ids[0]}` : group.ids.length ? sql<SqlBool>`${fk} in (${sql.join(group.ids)})` : undefined;
      if (group.value !== null) return q.where(ids!);
      return q.where(ids ? sql<SqlBool>`(${fk} is null or ${ids})` : sql<SqlBool>`${fk} is null`);
    };
    const { pageSize, offset } = this.request;
    // A page by number starts from the nearest place this list read before it (as deepIds does), kept per target
    // order: a renamed or added target makes other groups, and other places.
    const { kept, key: listKey, writes } = this.places();
    const key = `${listKey}\n${hash(JSON.stringify(groups))}`;
    let skip = 0;
    /** 1 when the row before the page is read too, for its place. */
    let before = 0;
    if (!cursor && offset) {
      const anchor = kept && anchorBefore(kept, key, offset - 1);
      if (anchor) {
        cursor = anchor;
        skip = offset - 1 - anchor.pos;
      } else {
        skip = offset - 1;
        before = kept ? 1 : 0;
        if (!before) skip++;
      }
    }
    let start = 0;
    if (cursor) {
      const value = cursor.value;
      start = groups.findIndex((g) => g.value === value);
      // The cursor's value is no longer a target's (renamed or deleted since): the page number applies.
      if (start < 0) {
        cursor = undefined;
        skip = offset;
        before = 0;
      }
    }
    if (!cursor) start = 0;
    const rows: Row[] = [];
    const values: Key[] = [];
    for (let g = start; g < groups.length && rows.length < pageSize + before; g++) {
      const group = groups[g];
      const from = cursor && g === start ? cursor.id : undefined;
      const where = (q: Query) => (from === undefined ? inGroup(group)(q) : inGroup(group)(q).where('t.id', this.cmp, from));
      const query = where(this.ordered(this.rowsQuery(), false));
      const need = pageSize + before - rows.length;
      const found = await readRows<Row>(this.engine, query.limit(need).offset(skip));
      if (!found.length && skip) {
        // The group has no more rows than skip: count them to skip the whole group.
        skip -= await this.countUpTo(where, skip);
        continue;
      }
      skip = 0;
      rows.push(...found);
      for (const _ of found) values.push(group.value);
    }
    if (kept && offset && writes === kept.writes && rows.length) {
      const first = offset - before;
      const at = (i: number): Anchor => ({ pos: first + i, value: values[i], id: Number(rows[i].id) });
      keepAnchors(kept, key, before ? [at(0), at(rows.length - 1)] : [at(rows.length - 1)]);
    }
    if (before && rows.length) {
      rows.shift();
      values.shift();
    }
    return this.finish(rows, () => values[values.length - 1]);
  }
}
