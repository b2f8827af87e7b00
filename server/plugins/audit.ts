// The audit log ("users logs"): one row per write and per login attempt, written with the caller's
// transaction so the write and its row commit together or not at all.
import type { Kysely } from 'kysely';
import type { EntityModel } from '../crud/model.ts';

export interface Actor {
  id: number | null;
  email: string | null;
  role: string | null;
}

export const AUDIT_FIELDS = ['userId', 'userRole', 'userEmail', 'baseUrl', 'routePath', 'createdAt'];

export interface AuditLog {
  /** Adds a row for a call of `path` (e.g. /v1/admin/platform/add: baseUrl /v1/admin/platform, routePath add). */
  write(trx: Kysely<any>, actor: Actor, path: string): Promise<void>;
}

export function createAuditLog(model: EntityModel | undefined): AuditLog {
  if (model) {
    const missing = AUDIT_FIELDS.filter((f) => !model.hasColumn(f));
    if (missing.length) throw new Error(`The audit-log entity "${model.entity}" lacks the fields ${missing.join(', ')}`);
  }
  return {
    async write(trx, actor, path) {
      if (!model) return;
      const cut = path.lastIndexOf('/');
      await trx
        .insertInto(model.table)
        .values({
          userId: actor.id,
          userRole: actor.role,
          userEmail: actor.email,
          baseUrl: path.slice(0, cut),
          routePath: path.slice(cut + 1),
          createdAt: new Date().toISOString(),
        })
        .execute();
    },
  };
}
