// Authentication: login/logout, the Authorization header (raw token or "Bearer <token>", never a cookie),
// per-action role checks, and the first admin on an empty database.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { Role } from '../../kernel/manifest/types.ts';
import { FIRST_ACCOUNT_ROLE } from '../../kernel/roles.ts';
import { forbidden, tooManyRequests, unauthorized } from '../errors.ts';
import { TOKENS_TABLE, type Engine } from '../core/context.ts';
import { routeValidation } from '../core/input.ts';
import { secretColumn } from '../model/model.ts';
import { DEFAULT_LIMITS, LoginThrottle, type AttemptLimits } from './rate-limit.ts';
import { addressKey } from './address-key.ts';
import { dummyHashPromise, hashPassword, sha256, verifyPassword } from './passwords.ts';
import { openSession } from './sessions.ts';
import { budgetedRows } from './audit.ts';
import { BEFORE_ROUTES } from '../core/plugin-tree.ts';
import type { Actor, AuditOutcome } from '../core/audit-log.ts';
import { LOGIN_SCHEMA, LOGOUT_SCHEMA } from '../contract/system-routes.ts';

export const ACCOUNT_FIELDS = ['email', 'role', 'password'];

export interface AuthUser extends Actor {
  id: number;
  email: string;
  role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const bearer = /^Bearer\s+(.+)$/i.exec(value);
  return (bearer ? bearer[1] : value).trim() || undefined;
}

const iso = (ms: number) => new Date(ms).toISOString();
const timeOf = (value: unknown) => (value instanceof Date ? value.getTime() : Date.parse(String(value)));

/** How stale lastUsedAt may grow before a call writes it again: one write a minute per session, not one a call. */
const touchEveryMs = (engine: Pick<Engine, 'sessions'>) => Math.min(60_000, engine.sessions.idleMs / 10);

/** Tokens still alive: issued within the lifetime and used within the idle timeout. */
function liveTokens(engine: Pick<Engine, 'db' | 'sessions'>, now: number) {
  return engine.db
    .selectFrom(`${TOKENS_TABLE} as k`)
    .where('k.createdAt', '>', iso(now - engine.sessions.lifetimeMs))
    .where('k.lastUsedAt', '>', iso(now - engine.sessions.idleMs));
}

/**
 * How long a session read from the database answers the calls that carry its token without reading it again. Every
 * API call names its session, and reading it was a database round trip per call (a third of a list call's CPU on
 * PostgreSQL). A logout through this process forgets its session at once, and any write to the accounts (a password
 * change, an account deleted) forgets every kept session, on another process too once the PostgreSQL change bridge
 * relays it; a session ended behind the server's back (another process's logout, a row changed by hand) is refused
 * at most this long after. The idle timeout and the lifetime are checked on every call.
 */
export const SESSION_RECHECK_MS = 1000;
const KEPT_SESSIONS = 10_000;

interface KeptSession {
  user: AuthUser;
  tokenId: number;
  createdAt: number;
  lastUsedAt: number;
  readAt: number;
}

interface Sessions {
  kept: Map<string, KeptSession>;
  /** Counts what ended sessions: a read that began before one of those is not kept. */
  ends: number;
}

// Kept per database (the app's): auth, live and the crud writes that end sessions share them.
const sessionsOf = new WeakMap<Kysely<any>, Sessions>();

function keptSessions(engine: Pick<Engine, 'accounts' | 'changes' | 'db'>): Sessions {
  let sessions = sessionsOf.get(engine.db);
  if (!sessions) {
    const created: Sessions = { kept: new Map(), ends: 0 };
    engine.changes.on((change) => {
      if (change.entity === engine.accounts.entity) forgetSessions(engine);
    });
    sessionsOf.set(engine.db, (sessions = created));
  }
  return sessions;
}

/** Forgets the kept sessions (all of them, or one token's): call it once the write that ended them committed. */
export function forgetSessions(engine: Pick<Engine, 'accounts' | 'changes' | 'db'>, tokenHash?: string): void {
  const sessions = keptSessions(engine);
  sessions.ends++;
  if (tokenHash) sessions.kept.delete(tokenHash);
  else sessions.kept.clear();
}

/**
 * The account a token belongs to, or null when it is unknown, revoked, idle past the idle timeout or older
 * than the session lifetime. A use keeps the session alive (lastUsedAt, written at most once a minute).
 */
export async function userForToken(engine: Pick<Engine, 'accounts' | 'changes' | 'db' | 'sessions'>, token: string | undefined): Promise<AuthUser | null> {
  if (!token || token.length > 200) return null;
  const now = Date.now();
  const tokenHash = sha256(token);
  const sessions = keptSessions(engine);
  let session = sessions.kept.get(tokenHash);
  if (!session || now - session.readAt >= SESSION_RECHECK_MS) {
    const ends = sessions.ends;
    const row = await liveTokens(engine, now)
      .innerJoin(`${engine.accounts.table} as u`, 'u.id', 'k.userId')
      .select(['u.id', 'u.email', 'u.role', 'k.id as tokenId', 'k.createdAt', 'k.lastUsedAt'])
      .where('k.tokenHash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) {
      sessions.kept.delete(tokenHash);
      return null;
    }
    const user: AuthUser = { id: Number(row.id), email: String(row.email), role: row.role as Role };
    session = { user, tokenId: Number(row.tokenId), createdAt: timeOf(row.createdAt), lastUsedAt: timeOf(row.lastUsedAt), readAt: now };
    if (sessions.ends === ends) {
      if (sessions.kept.size >= KEPT_SESSIONS) sessions.kept.clear();
      sessions.kept.set(tokenHash, session);
    }
  } else if (session.createdAt <= now - engine.sessions.lifetimeMs || session.lastUsedAt <= now - engine.sessions.idleMs) {
    sessions.kept.delete(tokenHash);
    return null;
  }
  if (now - session.lastUsedAt > touchEveryMs(engine)) {
    session.lastUsedAt = now;
    await engine.db.updateTable(TOKENS_TABLE).set({ lastUsedAt: iso(now) }).where('id', '=', session.tokenId).execute();
  }
  return { ...session.user };
}

/** Which of these token hashes still name a live session (the socket layer's sweep). */
export async function liveTokenHashes(engine: Pick<Engine, 'db' | 'sessions'>, hashes: string[]): Promise<Set<string>> {
  if (!hashes.length) return new Set();
  const rows = await liveTokens(engine, Date.now()).select('k.tokenHash').where('k.tokenHash', 'in', hashes).execute();
  return new Set(rows.map((r) => String(r.tokenHash)));
}

export function requireRoles(roles: Role[]) {
  return async (request: FastifyRequest) => {
    if (!request.user) throw unauthorized();
    if (!roles.includes(request.user.role)) throw forbidden();
  };
}

export function checkAccountsModel(engine: Pick<Engine, 'accounts'>): void {
  const missing = ACCOUNT_FIELDS.filter((f) => !(f in engine.accounts.props));
  if (missing.length || !engine.accounts.secrets.has('password')) {
    throw new Error(`The accounts entity "${engine.accounts.entity}" needs email, role and a secret password`);
  }
}

/** Creates the first admin when no account exists; returns the generated password when one was made up. */
export async function ensureFirstAdmin(engine: Pick<Engine, 'db' | 'accounts'>, email?: string, password?: string): Promise<{ email: string; password?: string } | undefined> {
  const any = await engine.db.selectFrom(engine.accounts.table).select('id').limit(1).executeTakeFirst();
  if (any) return undefined;
  const adminEmail = email ?? 'admin@example.com';
  const generated = password ? undefined : randomBytes(12).toString('base64url');
  const now = new Date().toISOString();
  const row: Record<string, unknown> = { email: adminEmail, role: FIRST_ACCOUNT_ROLE, [secretColumn('password')]: await hashPassword(password ?? generated!) };
  if (engine.accounts.hasColumn('createdAt')) row.createdAt = now;
  if (engine.accounts.hasColumn('updatedAt')) row.updatedAt = now;
  await engine.db.insertInto(engine.accounts.table).values(row).execute();
  return { email: adminEmail, password: generated };
}

/** Audit rows of failed and refused logins: per client address and overall, per window (a summary row for the rest). */
export const FAILED_LOGIN_ROWS = { perKey: 10, overall: 60, windowMs: 60_000 };

export function registerAuth(app: FastifyInstance, engine: Pick<Engine, 'accounts' | 'audit' | 'changes' | 'db' | 'live' | 'sessions'>, limits: AttemptLimits = DEFAULT_LIMITS): void {
  const throttle = new LoginThrottle(engine.db, limits);
  app.addHook('preClose', () => throttle.close());
  const failedRows = budgetedRows(app, engine, limits.failedLoginRows ?? FAILED_LOGIN_ROWS, '/v1/user/loginFailed', 'failed or refused logins', 'addresses');
  /** A failed or refused login's row, unless this address or everyone has had their share of rows this window. */
  const logAttempt = (email: string, address: string, path: string, outcome: AuditOutcome) =>
    failedRows.write(addressKey(address), { id: null, email, role: null }, path, { outcome, detail: `from ${address}` });

  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    request.user = await userForToken(engine, tokenFromHeader(request.headers.authorization));
  });

  // Both bodies are checked by Fastify against their schemas (server/contract/system-routes.ts).
  app.post('/v1/user/login', { schema: LOGIN_SCHEMA, validatorCompiler: routeValidation({ source: 'json' }).compiler }, async (request) => {
    const input = request.body as { email: string; password: string };
    const email = String(input.email).trim().toLowerCase();
    const address = request.ip;
    // Counted, and refused when over a limit or the lane is full, before any hashing.
    const outcome = await throttle.attempt(email, address, async () => {
      const account = await engine.db
        .selectFrom(engine.accounts.table)
        .select(['id', 'email', 'role', secretColumn('password')])
        .where(sql`lower(${sql.ref('email')})`, '=', email)
        .executeTakeFirst();
      const stored = account ? String(account[secretColumn('password')] ?? '') : await dummyHashPromise;
      return (await verifyPassword(String(input.password), stored)) && account ? account : undefined;
    });
    if ('retryAfterSeconds' in outcome) {
      await logAttempt(email, address, '/v1/user/loginRefused', 'throttled');
      throw tooManyRequests(outcome.retryAfterSeconds);
    }
    const account = outcome.value;
    if (!account) {
      await logAttempt(email, address, '/v1/user/loginFailed', 'failed');
      throw unauthorized('Wrong e-mail or password');
    }
    const user: AuthUser = { id: Number(account.id), email: String(account.email), role: account.role as Role };
    const token = await engine.db.transaction().execute(async (trx) => {
      const opened = await openSession(trx, engine, user.id);
      await engine.audit.write(trx, user, '/v1/user/login', { detail: `from ${address}` });
      return opened;
    });
    return { result: true, data: { token, user } };
  });

  app.post('/v1/user/logout', {
    schema: LOGOUT_SCHEMA,
    validatorCompiler: routeValidation({ source: 'json' }).compiler,
    // Who is asking, before what they sent is checked.
    preValidation: async (request) => {
      if (!request.user) throw unauthorized();
    },
  }, async (request) => {
    if (!request.user) throw unauthorized();
    const tokenHash = sha256(tokenFromHeader(request.headers.authorization)!);
    const user = request.user;
    await engine.db.transaction().execute(async (trx) => {
      await trx.deleteFrom(TOKENS_TABLE).where('tokenHash', '=', tokenHash).execute();
      await engine.audit.write(trx, user, '/v1/user/logout');
    });
    forgetSessions(engine, tokenHash);
    engine.live.endSessions({ tokenHash });
    return { result: true, data: {} };
  });
}

/**
 * The `auth` plugin: login and logout, and `request.user` (decorated, read from the Authorization header) for every
 * route registered after it. Its sessions are kept per database; failed logins go to `audit`.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: { limits?: AttemptLimits; sessions: AuthContext['sessions'] }) => {
    const context: AuthContext = { db: app.db, accounts: app.accounts, audit: app.audit, live: app.live, changes: app.changes, sessions: options.sessions };
    registerAuth(app, context, options.limits);
  },
  {
    name: 'auth',
    dependencies: ['manifests', 'db', 'audit', 'live-hub', 'changes', ...BEFORE_ROUTES],
    decorators: { fastify: ['db', 'accounts', 'audit', 'live', 'changes'] },
    fastify: '5.x',
  },
);

/** What login, logout and the sessions use of the server. */
type AuthContext = Pick<Engine, 'db' | 'accounts' | 'audit' | 'live' | 'changes' | 'sessions'>;
