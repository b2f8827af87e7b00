// Building an index over a table that already holds rows (schema sync at start, issue 14): on PostgreSQL the pool's
// connections stop any statement after 15 s, and an index over a million rows takes ~30 s on two cores (a trigram
// index) or several seconds (a b-tree), so the server would not start. Missing indexes are built on a connection of
// the sync's own with no time limit, opened at the first one missing and closed when the sync ends; an index that
// exists costs a catalogue lookup and no connection. (A connection per index made a first start on an empty
// database take ~7 s on two cores, most of it in 150 connection set-ups.)
import pg from 'pg';
import { sql, type Compilable, type Kysely } from 'kysely';
import type { Capabilities } from './database.ts';

export interface IndexBuilder {
  /**
   * Runs `statement` (a CREATE INDEX) unless PostgreSQL already has the index `name`. Without a database URL
   * (tests, SQLite) it runs through the pool as it is.
   * @example await indexes.build('ix_t_a', db.schema.createIndex('ix_t_a').ifNotExists().on('t').column('a'));
   */
  build(name: string, statement: Compilable): Promise<void>;
  /** Closes the connection the builds used, if one was opened. */
  close(): Promise<void>;
}

export function indexBuilder(db: Kysely<any>, caps: Capabilities, databaseUrl: string | undefined): IndexBuilder {
  let client: Promise<pg.Client> | undefined;
  const connection = () =>
    (client ??= (async () => {
      const opened = new pg.Client({ connectionString: databaseUrl, application_name: 'wl-admin-panel schema sync' });
      await opened.connect();
      return opened;
    })());
  return {
    async build(name, statement) {
      const compiled = statement.compile();
      if (caps.name !== 'postgres' || !databaseUrl) {
        await db.executeQuery(compiled);
        return;
      }
      const built = await sql`select 1 from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(db);
      if (built.rows.length) return;
      await (await connection()).query({ text: compiled.sql, values: [...compiled.parameters] });
    },
    async close() {
      const opened = client;
      client = undefined;
      if (opened) await (await opened.catch(() => undefined))?.end();
    },
  };
}
