// The `db` plugin: the database, opened, its tables made or updated and its migrations run, one process at a time
// (several may start at once on one PostgreSQL: each table and the first admin are made once). Decorates `db`,
// `caps`, `health`, `reads` and `firstAdmin`; closes them with the server.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import fp from 'fastify-plugin';
import { openDatabase, type Capabilities, type DatabaseOptions } from '../db/database.ts';
import type { DatabaseHealth } from '../db/guard.ts';
import { whileLocked } from '../db/locks.ts';
import { noteCall, readsFor, type Reads } from '../db/read-pool.ts';
import { syncSchema } from '../db/sync.ts';
import { runMigrations } from '../migrations/index.ts';
import type { EntityModel } from '../model/model.ts';
import { ensureFirstAdmin } from './auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<any>;
    caps: Capabilities;
    /** Whether the database is out (server/db/guard.ts). */
    health: DatabaseHealth;
    /** List reads: worker threads on SQLite, the pool on PostgreSQL (server/db/read-pool.ts). */
    reads: Reads;
    /** Set when this start created the first admin; `password` only when it was generated. */
    firstAdmin?: { email: string; password?: string };
  }
}

export interface DbOptions {
  /** The connection settings, and the read pool's (server/config.ts). */
  database: DatabaseOptions & Parameters<typeof readsFor>[0];
  /** The first admin, made when no account exists (ADMIN_EMAIL, ADMIN_PASSWORD; a generated password otherwise). */
  admin: { email?: string; password?: string };
  /**
   * Work of the start that needs the tables and must be done before the first request, under the same lock: files and
   * rows made to agree (interrupted writes finished or undone, server/crud/file-journal.ts).
   */
  recover(db: { db: Kysely<any>; models: Map<string, EntityModel> }): Promise<void>;
}

export const dbPlugin = fp(
  async (app: FastifyInstance, options: DbOptions) => {
    const database = openDatabase(options.database);
    const reads = readsFor(options.database, database);
    const close = async () => {
      await reads.close();
      await database.close();
    };
    let firstAdmin: { email: string; password?: string } | undefined;
    try {
      const { db, caps } = database;
      firstAdmin = await whileLocked(db, caps, 'start', async () => {
        await syncSchema(db, caps, [...app.models.values()], options.database.databaseUrl);
        await runMigrations(db, caps);
        await options.recover({ db, models: app.models });
        return ensureFirstAdmin({ db, accounts: app.accounts }, options.admin.email, options.admin.password);
      });
    } catch (error) {
      await close();
      throw error;
    }
    app.decorate('db', database.db);
    app.decorate('caps', database.caps);
    app.decorate('health', database.health);
    app.decorate('reads', reads);
    app.decorate('firstAdmin', firstAdmin);
    // The list reads yield longer while the busy event loop also serves other calls (server/db/read-pool.ts).
    app.addHook('onRequest', (_request, _reply, done) => {
      noteCall();
      done();
    });
    app.addHook('onClose', close);
  },
  { name: 'db', dependencies: ['manifests'], decorators: { fastify: ['models', 'accounts'] }, fastify: '5.x' },
);
