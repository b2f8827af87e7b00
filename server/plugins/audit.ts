// The audit log ("users logs"): one row per write and per login attempt, written with the caller's
// transaction so the write and its row commit together or not at all. Rows also say which record a write
// touched (for "who changed it") and how a refused call ended; every text is made safe to read as one line.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import fp from 'fastify-plugin';

import type { EntityModel } from '../model/model.ts';
import type { Actor, AuditExtra, AuditLog } from '../core/audit-log.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The users log (`provides: audit-log`; none: writes nothing). */
    audit: AuditLog;
  }
}

export const AUDIT_FIELDS = ['userId', 'userRole', 'userEmail', 'baseUrl', 'routePath', 'createdAt'];

/** Longest text kept in one audit field; a longer value is cut with an ellipsis. */
const MAX_TEXT = 500;

/**
 * A value as one readable line: line breaks, other control characters and the invisible characters that
 * reorder or hide text (bidi overrides, zero-width marks) become visible escapes, so a stored or tried value
 * can never forge a second log line or disguise itself.
 * @example logSafe('x@y.io\n2025-01-01 admin login') // 'x@y.io\\n2025-01-01 admin login'
 */
export function logSafe(value: string, max = MAX_TEXT): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this escapes
  const escaped = value.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g, (ch) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return escaped.length > max ? `${escaped.slice(0, max - 1)}…` : escaped;
}

const safe = (value: string | null | undefined) => (typeof value === 'string' ? logSafe(value) : (value ?? null));

export function createAuditLog(model: EntityModel | undefined): AuditLog {
  if (model) {
    const missing = AUDIT_FIELDS.filter((f) => !model.hasColumn(f));
    if (missing.length) throw new Error(`The audit-log entity "${model.entity}" lacks the fields ${missing.join(', ')}`);
  }
  return {
    async write(trx, actor, path, extra = {}) {
      if (!model) return;
      const cut = path.lastIndexOf('/');
      const row: Record<string, unknown> = {
        userId: actor.id,
        userRole: safe(actor.role),
        userEmail: safe(actor.email),
        baseUrl: safe(path.slice(0, cut)),
        routePath: safe(path.slice(cut + 1)),
        createdAt: new Date().toISOString(),
      };
      const optional: Record<string, unknown> = {
        entity: extra.entity ?? null,
        recordId: extra.recordId ?? null,
        outcome: extra.outcome ?? null,
        detail: safe(extra.detail),
        changes: extra.changes?.length ? JSON.stringify(extra.changes) : null,
      };
      for (const [field, value] of Object.entries(optional)) if (model.hasColumn(field)) row[field] = value;
      await trx.insertInto(model.table).values(row).execute();
    },
    async lastChangeOf(db, entity, recordId) {
      if (!model || !model.hasColumn('entity') || !model.hasColumn('recordId')) return undefined;
      const row = await db
        .selectFrom(model.table)
        .select(['userEmail', 'createdAt'])
        .where('entity', '=', entity)
        .where('recordId', '=', recordId)
        .$if(model.hasColumn('outcome'), (q) => q.where('outcome', 'is', null))
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!row) return undefined;
      const at = row.createdAt instanceof Date ? row.createdAt.toISOString() : String(row.createdAt);
      return { email: (row.userEmail as string | null) ?? null, at };
    },
  };
}

/**
 * How many audit rows of one kind (failed logins, refused calls) may be written per window: per key (a client
 * address, a user) and overall. What goes over is counted, and `drain()` hands the count to one summary row,
 * so an anonymous caller cannot grow the log without bound and a reviewer still sees that it happened.
 */
export class RowBudget {
  private windowStart = 0;
  private used = 0;
  private perKey = new Map<string, number>();
  private suppressed = 0;
  private suppressedKeys = new Set<string>();

  constructor(
    private readonly limits: { perKey: number; overall: number; windowMs: number; maxKeys?: number },
  ) {}


  /** True when a row may be written for `key` now; otherwise the attempt is counted for the next summary. */
  admit(key: string, now = Date.now()): boolean {
    if (now - this.windowStart >= this.limits.windowMs) {
      this.windowStart = now;
      this.used = 0;
      this.perKey.clear();
    }
    const mine = this.perKey.get(key) ?? 0;
    const roomForKey = this.perKey.has(key) || this.perKey.size < (this.limits.maxKeys ?? 10_000);
    if (mine >= this.limits.perKey || this.used >= this.limits.overall || !roomForKey) {
      this.suppressed++;
      if (this.suppressedKeys.size < (this.limits.maxKeys ?? 10_000)) this.suppressedKeys.add(key);
      return false;
    }
    this.perKey.set(key, mine + 1);
    this.used++;
    return true;
  }

  /** The attempts not written one by one since the last drain, and from how many keys; undefined when none. */
  drain(): { count: number; keys: number } | undefined {
    if (!this.suppressed) return undefined;
    const summary = { count: this.suppressed, keys: this.suppressedKeys.size };
    this.suppressed = 0;
    this.suppressedKeys.clear();
    return summary;
  }
}

/** What the audit's own writers need of the engine (server/core/context.ts's Engine has both), declared here so the audit log does not import the engine that holds it. */
export interface AuditTarget {
  db: Kysely<any>;
  audit: AuditLog;
}

export interface BudgetedRows {
  /** Writes the row unless `key` or everyone has had their share this window (then it is counted for the summary). */
  write(key: string, actor: Actor, path: string, extra: AuditExtra): Promise<void>;
}

/**
 * Audit rows of one kind under a RowBudget: rows past the budget are counted, and once a window one summary
 * row (outcome `suppressed`, at `summaryPath`) says how many there were and from how many `keyNoun`s.
 * @example const failed = budgetedRows(app, engine, FAILED_LOGIN_ROWS, '/v1/user/loginFailed', 'failed or refused logins', 'addresses');
 */
export function budgetedRows(
  app: FastifyInstance,
  engine: AuditTarget,
  limits: { perKey: number; overall: number; windowMs: number },
  summaryPath: string,
  what: string,
  keyNoun: string,
): BudgetedRows {
  const budget = new RowBudget(limits);
  const summarize = async () => {
    const skipped = budget.drain();
    if (!skipped) return;
    const detail = `${skipped.count} more ${what} from ${skipped.keys} ${keyNoun} were not logged one by one`;
    await engine.db.transaction().execute((trx) => engine.audit.write(trx, { id: null, email: null, role: null }, summaryPath, { outcome: 'suppressed', detail }));
  };
  const timer = setInterval(() => summarize().catch((error) => app.log.error({ err: error }, `could not write the summary of ${what}`)), limits.windowMs);
  timer.unref();
  app.addHook('preClose', async () => clearInterval(timer));
  return {
    async write(key, actor, path, extra) {
      if (!budget.admit(key)) return;
      await engine.db.transaction().execute((trx) => engine.audit.write(trx, actor, path, extra));
    },
  };
}

/** Audit rows of refused calls (403): per user and overall, per window. */
export const REFUSED_CALL_ROWS = { perKey: 30, overall: 300, windowMs: 60_000 };

/**
 * Logs every call refused with 403 (the caller's role may not use it) under the declared path, so a reviewer
 * sees who tried what; a user looping on refused calls gets a summary row instead of one row each.
 */
export function registerRefusalAudit(app: FastifyInstance, engine: AuditTarget, limits = REFUSED_CALL_ROWS): void {
  const rows = budgetedRows(app, engine, limits, '/v1/admin/refused', 'refused calls', 'users');
  app.addHook('onResponse', async (request, reply) => {
    const actor = request.user;
    if (reply.statusCode !== 403 || !actor) return;
    const path = request.routeOptions.url ?? request.url.split('?')[0];
    const detail = `${request.method} refused: the role ${actor.role} may not use this call`;
    await rows.write(`user:${actor.id}`, actor, path, { outcome: 'refused', detail }).catch((error) => request.log.error({ err: error }, 'could not log a refused call'));
  });
}

/**
 * The `audit` plugin: decorates `audit`, the log of the entity that `provides: audit-log`, and logs refused calls
 * (who is refused is known once `auth` has read the caller; the hook reads it when the call is answered).
 */
export const auditPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('audit', createAuditLog([...app.models.values()].find((m) => m.manifest.provides === 'audit-log')));
    registerRefusalAudit(app, { db: app.db, audit: app.audit });
  },
  { name: 'audit', dependencies: ['manifests', 'db'], decorators: { fastify: ['models', 'db'] }, fastify: '5.x' },
);
