// The audit log's shape: what a write hands it (who, what, how it ended, what changed). Its writer is
// server/plugins/audit.ts; the shape sits on the ground floor so the engine's context can name it.
import type { Kysely } from 'kysely';

/** One field a write changed (server/audit/diff.ts computes them); a secret's values are never kept. */
export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
  secret?: true;
}
export interface Actor {
  id: number | null;
  email: string | null;
  role: string | null;
}

/** How a call that was not a plain success ended; absent (null in the row) for a success. */
export type AuditOutcome = 'refused' | 'failed' | 'throttled' | 'suppressed';

/** What a row may add besides who called what, each stored only when the audit entity declares the field. */
export interface AuditExtra {
  /** The entity and record a write touched. */
  entity?: string | null;
  recordId?: number | null;
  outcome?: AuditOutcome;
  /** A short note for a reviewer: the client address of a failed login, how many rows were not written. */
  detail?: string;
  /** The fields a write changed, with their values before and after (server/audit/diff.ts). */
  changes?: FieldChange[] | null;
}

export interface AuditLog {
  /** Adds a row for a call of `path` (e.g. /v1/admin/platform/add: baseUrl /v1/admin/platform, routePath add). */
  write(trx: Kysely<any>, actor: Actor, path: string, extra?: AuditExtra): Promise<void>;
  /** The last row about one record: who changed it and when (undefined when no row names it). */
  lastChangeOf(db: Kysely<any>, entity: string, recordId: number): Promise<{ email: string | null; at: string } | undefined>;
}
