// Versioned migrations: what additive sync cannot express. Each runs once, in order, in a transaction, and is
// recorded in schema_migrations. Append new entries; never edit or reorder applied ones.
import { sql, type Kysely } from 'kysely';
import type { Capabilities } from '../db/database.ts';

export interface Migration {
  version: number;
  name: string;
  up(db: Kysely<any>, caps: Capabilities): Promise<void>;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'auth tokens: opaque login tokens stored as sha256, one row per session',
    async up(db, caps) {
      await db.schema
        .createTable('auth_tokens')
        .ifNotExists()
        .addColumn('id', sql.raw(caps.idType), (c) => (caps.autoIncrementKey ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('userId', sql.raw(caps.columnType('integer')), (c) => c.notNull())
        .addColumn('tokenHash', 'text', (c) => c.notNull().unique())
        .addColumn('createdAt', sql.raw(caps.columnType('timestamp')), (c) => c.notNull())
        .addColumn('expiresAt', sql.raw(caps.columnType('timestamp')), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ix_auth_tokens_userId').ifNotExists().on('auth_tokens').column('userId').execute();
    },
  },
  {
    version: 2,
    name: 'auth tokens: lastUsedAt, so a session ends after an idle timeout (existing sessions count from their login)',
    async up(db, caps) {
      await db.schema.alterTable('auth_tokens').addColumn('lastUsedAt', sql.raw(caps.columnType('timestamp'))).execute();
      await db.updateTable('auth_tokens').set({ lastUsedAt: sql.ref('createdAt') }).execute();
    },
  },
  {
    version: 3,
    name: 'login attempts in a table, so every process counts against the same limits (server/plugins/rate-limit.ts)',
    async up(db, caps) {
      await db.schema
        .createTable('login_attempts')
        .ifNotExists()
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', sql.raw(caps.columnType('integer')), (c) => c.notNull())
        .addColumn('ref', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ix_login_attempts_bucket_key_at').ifNotExists().on('login_attempts').columns(['bucket', 'key', 'at']).execute();
      await db.schema.createIndex('ix_login_attempts_ref').ifNotExists().on('login_attempts').column('ref').execute();
      await db.schema.createIndex('ix_login_attempts_at').ifNotExists().on('login_attempts').column('at').execute();
    },
  },
];

export async function runMigrations(db: Kysely<any>, caps: Capabilities, list: Migration[] = migrations): Promise<void> {
  await db.schema
    .createTable('schema_migrations')
    .ifNotExists()
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('appliedAt', 'text', (c) => c.notNull())
    .execute();
  const applied = new Set(
    (await db.selectFrom('schema_migrations').select('version').execute()).map((r) => Number(r.version)),
  );
  for (const migration of [...list].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    await db.transaction().execute(async (trx) => {
      await migration.up(trx, caps);
      await trx
        .insertInto('schema_migrations')
        .values({ version: migration.version, name: migration.name, appliedAt: new Date().toISOString() })
        .execute();
    });
  }
}
