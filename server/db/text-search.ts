// Contains filters on an index that serves them (issue 14). A list filter `{"op": "contains", "index": "trigram"}`
// is served by a trigram index instead of a scan of every row:
//   PostgreSQL: a GIN index with pg_trgm's gin_trgm_ops on lower(column), and the filter `lower(column) like
//     lower('%v%')`: the same rows as ILIKE (which lowers both sides of every row it tests, the pattern included), at
//     ~0.6x its cost per row where the planner walks the primary key instead (many matches, ORDER BY id LIMIT). When
//     the extension cannot be created (no permission), the server says so once at start and the filter scans.
//   SQLite: one FTS5 table per entity (tokenize trigram, case-insensitive) over the trigram-indexed columns, an
//     external-content index kept by triggers; the filter becomes `id in (select rowid from fts ... like ...)`.
// Values shorter than 3 characters cannot use a trigram index: they still give the same rows, by a scan.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Capabilities } from './database.ts';
import type { IndexBuilder } from './index-build.ts';
import type { EntityModel } from '../model/model.ts';

/** Own columns with a contains filter declared `index: trigram`. */
export function trigramFields(model: EntityModel): string[] {
  const fields = (model.manifest.list?.filters ?? [])
    .filter((f) => f.op === 'contains' && f.index === 'trigram' && !f.field.includes('.') && model.hasColumn(f.field))
    .map((f) => f.field);
  return [...new Set(fields)];
}

/** The pending list of a trigram GIN index, in kB (PostgreSQL's default is gin_pending_list_limit = 4096). */
const GIN_PENDING_LIST_KB = 64;

export const ftsTable = (model: EntityModel) => `fts_${model.table}`;

/** Creates what serves the model's trigram filters; returns a line for the log when it could not. */
export async function syncTextSearch(db: Kysely<any>, caps: Capabilities, model: EntityModel, indexes: IndexBuilder): Promise<string | undefined> {
  const fields = trigramFields(model);
  if (!fields.length) return undefined;
  if (caps.textSearch === 'trigram-index') {
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
    } catch (error) {
      return `pg_trgm is not available (${(error as Error).message}): contains filters of ${model.table} (${fields.join(', ')}) scan every row; ask the database's owner to run CREATE EXTENSION pg_trgm`;
    }
    for (const field of fields) {
      const name = `trgm_lower_${model.table}_${field}`.slice(0, 63);
      const index = sql`create index if not exists ${sql.id(name)} on ${sql.table(model.table)} using gin (lower(${sql.ref(field)}) gin_trgm_ops)`;
      await indexes.build(name, { compile: () => index.compile(db) });
      // Every query reads the whole pending list of new entries (4 MB by default: 8 ms on a query that matches
      // nothing); a small one keeps that under a tenth of a millisecond while inserts still go in batches.
      await sql`alter index ${sql.id(name)} set (gin_pending_list_limit = ${sql.lit(GIN_PENDING_LIST_KB)})`.execute(db);
      await sql`select gin_clean_pending_list(${`"${name}"`}::regclass)`.execute(db);
      // The index on the column itself, of earlier versions: no query uses it any more.
      await sql`drop index if exists ${sql.id(`trgm_${model.table}_${field}`.slice(0, 63))}`.execute(db);
    }
    return undefined;
  }
  const fts = ftsTable(model);
  const existing = await sql<{ sql: string }>`select sql from sqlite_master where name = ${fts}`.execute(db);
  const wanted = `create virtual table ${fts} using fts5(${fields.map((f) => `"${f}"`).join(', ')}, content='${model.table}', content_rowid='id', tokenize='trigram case_sensitive 0')`;
  // SQLite stores the statement with its leading keywords in capitals: compare past them, or every start rebuilds it.
  if (existing.rows[0]?.sql.replace(/^create virtual table/i, 'create virtual table') === wanted) return undefined;
  // A derived index: when the manifest's fields changed, it is built again from the table.
  await db.transaction().execute(async (trx) => {
    await sql`drop table if exists ${sql.id(fts)}`.execute(trx);
    for (const suffix of ['ai', 'ad', 'au']) await sql`drop trigger if exists ${sql.id(`${fts}_${suffix}`)}`.execute(trx);
    await sql.raw(wanted).execute(trx);
    const cols = fields.map((f) => `"${f}"`).join(', ');
    const newCols = fields.map((f) => `new."${f}"`).join(', ');
    const oldCols = fields.map((f) => `old."${f}"`).join(', ');
    await sql.raw(`create trigger ${fts}_ai after insert on ${model.table} begin insert into ${fts}(rowid, ${cols}) values (new.id, ${newCols}); end`).execute(trx);
    await sql.raw(`create trigger ${fts}_ad after delete on ${model.table} begin insert into ${fts}(${fts}, rowid, ${cols}) values ('delete', old.id, ${oldCols}); end`).execute(trx);
    await sql
      .raw(`create trigger ${fts}_au after update on ${model.table} begin insert into ${fts}(${fts}, rowid, ${cols}) values ('delete', old.id, ${oldCols}); insert into ${fts}(rowid, ${cols}) values (new.id, ${newCols}); end`)
      .execute(trx);
    await sql.raw(`insert into ${fts}(${fts}) values ('rebuild')`).execute(trx);
  });
  return undefined;
}

/** A value as LIKE matches it literally, its wildcards and the escape character escaped (with `escape '\\'`). */
export const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The WHERE condition of a contains filter on `t.<field>` with the value `value` through the field's trigram index,
 * or undefined when the field has none (the caller's LIKE/ILIKE applies).
 */
export function trigramCondition(caps: Capabilities, model: EntityModel, field: string, value: string): RawBuilder<unknown> | undefined {
  if (!trigramFields(model).includes(field)) return undefined;
  if (caps.textSearch === 'trigram-index') return sql`lower(${sql.ref(`t.${field}`)}) like lower(${`%${escapeLike(value)}%`}) escape '\\'`;
  return sql`t.id in (select rowid from ${sql.table(ftsTable(model))} where ${ftsLike(model, field, value)})`;
}

/**
 * A contains filter's LIKE on the FTS5 table itself (for a query over that table, such as its rowids in order; its
 * columns named as `qualifier`.field when given), or undefined when the field is not in it. FTS5 uses its index for LIKE without ESCAPE only: values free of wildcards
 * need none.
 */
export function ftsLike(model: EntityModel, field: string, value: string, qualifier?: string): RawBuilder<unknown> | undefined {
  if (!trigramFields(model).includes(field)) return undefined;
  const column = sql.ref(qualifier ? `${qualifier}.${field}` : field);
  return /[\\%_]/.test(value) ? sql`${column} like ${`%${escapeLike(value)}%`} escape '\\'` : sql`${column} like ${`%${value}%`}`;
}
