// Building an index over a table that already holds rows (schema sync at start, issue 14): on PostgreSQL the pool's
// connections stop any statement after 15 s, and an index over a million rows takes ~30 s on two cores (a trigram
// index) or several seconds (a b-tree), so the server would not start. Missing indexes are built on a connection of
// the sync's own with no time limit, opened at the first one missing and closed when the sync ends. Which indexes
// exist is read from the catalogue once per sync. (A connection per index made a first start on an empty database
// take ~7 s on two cores, most of it in 150 connection set-ups; a lookup per index cost every start ~150 round trips.)
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
  let existing: Promise<Set<string>> | undefined;
  // The sync runs under the start lock (locks.ts): no other process adds an index meanwhile.
  const exists = async (name: string) =>
    (await (existing ??= sql<{ indexname: string }>`select indexname from pg_indexes where schemaname = current_schema()`
      .execute(db)
      .then(({ rows }) => new Set(rows.map((r) => r.indexname))))).has(name);
  const connection = () =>
    (client ??= (async () => {
      const opened = new pg.Client({ connectionString: databaseUrl, application_name: 'wl-admin-panel schema sync' });
      await opened.connect();
      return opened;
    })());
  return {
    async build(name, statement) {
      const compiled = statement.compile();
      if (!caps.concurrentIndexBuild || !databaseUrl) {
        await db.executeQuery(compiled);
        return;
      }
      if (await exists(name)) return;
      await (await connection()).query({ text: compiled.sql, values: [...compiled.parameters] });
      (await existing)!.add(name);
    },
    async close() {
      const opened = client;
      client = undefined;
      if (opened) await (await opened.catch(() => undefined))?.end();
    },
  };
}
