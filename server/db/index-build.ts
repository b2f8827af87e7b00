// Building an index over a table that already holds rows (schema sync at start, issue 14): on PostgreSQL the pool's
// connections stop any statement after 15 s, and an index over a million rows takes ~30 s on two cores (a trigram
// index) or several seconds (a b-tree), so the server would not start. A missing index is built on a connection of
// its own with no time limit; one that exists costs a catalogue lookup and no new connection.
import pg from 'pg';
import { sql, type Compilable, type Kysely } from 'kysely';
import type { Capabilities } from './database.ts';

/**
 * Runs `statement` (a CREATE INDEX) unless PostgreSQL already has the index `name`. Without a database URL (tests,
 * SQLite) it runs through `db` as it is.
 * @example await buildIndex(db, caps, url, 'ix_t_a', db.schema.createIndex('ix_t_a').ifNotExists().on('t').column('a'));
 */
export async function buildIndex(db: Kysely<any>, caps: Capabilities, databaseUrl: string | undefined, name: string, statement: Compilable): Promise<void> {
  const compiled = statement.compile();
  if (caps.name !== 'postgres' || !databaseUrl) {
    await db.executeQuery(compiled);
    return;
  }
  const built = await sql`select 1 from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(db);
  if (built.rows.length) return;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'wl-admin-panel schema sync' });
  await client.connect();
  try {
    await client.query({ text: compiled.sql, values: [...compiled.parameters] });
  } finally {
    await client.end();
  }
}
