// SQLite's prepared statements are kept per connection (server/db/database.ts keptStatements): the same SQL run again
// reuses its statement. What a client would notice if that went wrong: stale rows after a write, a column added by the
// schema sync missing, or a read failing after a streamed read of the same query stopped halfway.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';

describe('SQLite statements kept per connection', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statements-'));
    database = openDatabase({ dataDir: dir });
    await sql`create table notes (id integer primary key, body text)`.execute(database.db);
    await database.db.insertInto('notes').values(Array.from({ length: 30 }, (_, i) => ({ body: `note ${i}` }))).execute();
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const all = () => database.db.selectFrom('notes').selectAll().orderBy('id').execute();

  it('answers the rows as they are now when the same query runs again after a write', async () => {
    expect(await all()).toHaveLength(30);
    await database.db.deleteFrom('notes').where('id', '>', 25).execute();
    expect(await all()).toHaveLength(25);
    await database.db.updateTable('notes').set({ body: 'changed' }).where('id', '=', 1).execute();
    expect((await all())[0]).toEqual({ id: 1, body: 'changed' });
  });

  it('answers a column added after the query was first run', async () => {
    expect(Object.keys((await all())[0])).toEqual(['id', 'body']);
    await sql`alter table notes add column pinned integer default 0`.execute(database.db);
    expect((await all())[0]).toEqual({ id: 1, body: 'changed', pinned: 0 });
  });

  it('runs a query again after a streamed read of it stopped halfway', async () => {
    const query = () => database.db.selectFrom('notes').selectAll().orderBy('id');
    const streamed: unknown[] = [];
    for await (const row of query().stream(5)) {
      streamed.push(row);
      if (streamed.length === 3) break;
    }
    expect(streamed).toHaveLength(3);
    expect(await query().execute()).toHaveLength(25);
    let again = 0;
    for await (const _ of query().stream(5)) again++;
    expect(again).toBe(25);
  });
});
