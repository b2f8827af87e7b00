// Additive sync from the manifests: creates missing tables, columns and indexes. Never drops or alters
// anything that exists; changes of that kind are versioned migrations (server/migrations).
import { sql, type Kysely } from 'kysely';
import type { Capabilities } from './database.ts';
import { isEmailField, type EntityModel } from '../model/model.ts';
import { listIndexes } from './indexes.ts';
import { syncTextSearch } from './text-search.ts';
import { indexBuilder, type IndexBuilder } from './index-build.ts';

const onDeleteSql = { restrict: 'restrict', cascade: 'cascade', setNull: 'set null' } as const;

/** Index name from table and fields, kept under PostgreSQL's 63-character limit. */
function indexName(prefix: string, table: string, fields: string[]): string {
  const name = `${prefix}_${table}_${fields.join('_')}`;
  return name.length <= 63 ? name : `${name.slice(0, 54)}_${simpleHash(name)}`;
}
function simpleHash(text: string): string {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h.toString(36);
}

/**
 * A unique index whose e-mail fields compare lower-cased. Rows that already differ only in case would make it
 * fail with a bare constraint error; they are named instead, and the server does not start until they are merged.
 */
async function uniqueIgnoringCase(db: Kysely<any>, model: EntityModel, fields: string[]): Promise<void> {
  const name = indexName('uxci', model.table, fields);
  const parts = fields.map((f) => (isEmailField(model, f) ? sql`lower(${sql.ref(f)})` : sql.ref(f)));
  const duplicates = await db
    .selectFrom(model.table)
    .select([sql<string>`min(${sql.ref(fields[0])})`.as('sample'), sql<string>`count(*)`.as('n')])
    .groupBy(parts)
    .having(sql`count(*)`, '>', 1)
    .limit(20)
    .execute();
  if (duplicates.length) {
    const list = duplicates.map((d) => `"${String(d.sample)}" (${Number(d.n)} rows)`).join(', ');
    throw new Error(
      `${model.table}.${fields.join(', ')} must be unique regardless of case, but some rows differ only in case: ${list}. ` +
        'Rename or delete the extra rows (the e-mail is the same address), then start the server again.',
    );
  }
  await sql`create unique index if not exists ${sql.id(name)} on ${sql.table(model.table)} (${sql.join(parts)})`.execute(db);
}

export async function syncSchema(db: Kysely<any>, caps: Capabilities, models: EntityModel[], databaseUrl?: string): Promise<void> {
  const indexes = indexBuilder(db, caps, databaseUrl);
  try {
    await syncModels(db, caps, models, indexes);
  } finally {
    await indexes.close();
  }
}

async function syncModels(db: Kysely<any>, caps: Capabilities, models: EntityModel[], indexes: IndexBuilder): Promise<void> {
  const existing = new Map<string, Set<string>>();
  for (const table of await db.introspection.getTables()) {
    existing.set(table.name, new Set(table.columns.map((c) => c.name)));
  }
  const byEntity = new Map(models.map((m) => [m.entity, m]));
  // Referenced tables first, so foreign keys can be declared at creation.
  const ordered: EntityModel[] = [];
  const visit = (m: EntityModel, seen: Set<string>) => {
    if (ordered.includes(m) || seen.has(m.entity)) return;
    seen.add(m.entity);
    for (const r of m.manifest.relations ?? []) {
      const target = byEntity.get(r.entity);
      if (target) visit(target, seen);
    }
    ordered.push(m);
  };
  models.forEach((m) => visit(m, new Set()));

  for (const model of ordered) {
    const relations = model.manifest.relations ?? [];
    const refOf = (column: string) => {
      const r = relations.find((rel) => rel.field === column);
      return r ? { table: byEntity.get(r.entity)!.table, onDelete: onDeleteSql[r.onDelete ?? 'restrict'] } : undefined;
    };
    const columns = existing.get(model.table);
    if (!columns) {
      let create = db.schema.createTable(model.table).ifNotExists();
      for (const column of model.columns) {
        if (column.name === 'id') {
          create = create.addColumn('id', sql.raw(caps.idType), (c) => {
            const pk = c.primaryKey();
            return caps.autoIncrementKey ? pk.autoIncrement() : pk;
          });
          continue;
        }
        const ref = refOf(column.name);
        create = create.addColumn(column.name, sql.raw(caps.columnType(column.kind)), (c) =>
          ref ? c.references(`${ref.table}.id`).onDelete(ref.onDelete as 'restrict') : c,
        );
      }
      await create.execute();
    } else {
      for (const column of model.columns) {
        if (columns.has(column.name)) continue;
        // Added columns are nullable: a NOT NULL column cannot be added to rows that exist.
        await db.schema.alterTable(model.table).addColumn(column.name, sql.raw(caps.columnType(column.kind))).execute();
      }
    }
    const storage = model.manifest.storage ?? {};
    for (const fields of storage.unique ?? []) {
      if (fields.some((f) => isEmailField(model, f))) await uniqueIgnoringCase(db, model, fields);
      else {
        const name = indexName('ux', model.table, fields);
        await indexes.build(name, db.schema.createIndex(name).ifNotExists().unique().on(model.table).columns(fields));
      }
    }
    const indexed = new Set<string>();
    const plain = [
      ...(storage.indexes ?? []),
      ...relations.map((r) => [r.field]),
      ...(model.manifest.list?.filters ?? []).filter((f) => !f.field.includes('.')).map((f) => [f.field]),
      ...listIndexes(model),
    ];
    for (const fields of plain) {
      const key = fields.join(',');
      if (indexed.has(key) || key === 'id') continue;
      indexed.add(key);
      const name = indexName('ix', model.table, fields);
      await indexes.build(name, db.schema.createIndex(name).ifNotExists().on(model.table).columns(fields));
    }
    const note = await syncTextSearch(db, caps, model, indexes);
    if (note) console.warn(note);
  }
}
