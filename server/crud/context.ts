// The state the generic routes and the custom actions share.
import type { Kysely } from 'kysely';
import type { Manifest } from '../../src/core/manifest/types.ts';
import type { Capabilities } from '../db/database.ts';
import type { AuditLog } from '../plugins/audit.ts';
import type { LiveHub } from '../plugins/live-hub.ts';
import type { ChangeFeed } from './changes.ts';
import type { Reads } from '../db/read-pool.ts';
import type { EntityModel } from './model.ts';

export interface Engine {
  db: Kysely<any>;
  caps: Capabilities;
  manifests: Manifest[];
  /** Models of the entities that have a table, by entity name. */
  models: Map<string, EntityModel>;
  /** The entity that `provides: accounts` (the users who log in). */
  accounts: EntityModel;
  audit: AuditLog;
  live: LiveHub;
  /** Committed writes, by entity: what caches of the tables listen to. */
  changes: ChangeFeed;
  /** DATA_DIR: uploaded files and the build tree live under it. */
  dataDir: string;
  /** How long a session lives: without a call (idle) and at most (lifetime) after its login. */
  sessions: { idleMs: number; lifetimeMs: number };
  /** Rows a list counts exactly before answering a capped count (LIST_COUNT_LIMIT, server/crud/list-query.ts). */
  listCountLimit?: number;
  /** List reads: worker threads on SQLite, the pool on PostgreSQL (server/db/read-pool.ts); absent = engine.db. */
  reads?: Reads;
}

export const TOKENS_TABLE = 'auth_tokens';

/** Ends every session of an account: on logout-everywhere, password change and account deletion. */
export async function revokeTokensOf(trx: Kysely<any>, userId: number): Promise<void> {
  await trx.deleteFrom(TOKENS_TABLE).where('userId', '=', userId).execute();
}
