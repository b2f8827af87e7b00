// Authentication: login/logout, the Authorization header (raw token or "Bearer <token>", never a cookie),
// per-action role checks, and the first admin on an empty database.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Role } from '../../src/core/manifest/types.ts';
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../errors.ts';
import { TOKENS_TABLE, type Engine } from '../crud/context.ts';
import { check, objectValidator, readRaw } from '../crud/input.ts';
import { secretColumn } from '../crud/model.ts';
import { AttemptWindow, DEFAULT_LIMITS, type AttemptLimits } from './rate-limit.ts';
import { dummyHashPromise, hashPassword, newToken, sha256, verifyPassword } from './passwords.ts';
import type { Actor } from './audit.ts';

export const TOKEN_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
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

/** The account a token belongs to, or null when it is unknown, expired or revoked. */
export async function userForToken(engine: Engine, token: string | undefined): Promise<AuthUser | null> {
  if (!token || token.length > 200) return null;
  const row = await engine.db
    .selectFrom(`${TOKENS_TABLE} as k`)
    .innerJoin(`${engine.accounts.table} as u`, 'u.id', 'k.userId')
    .select(['u.id', 'u.email', 'u.role'])
    .where('k.tokenHash', '=', sha256(token))
    .where('k.expiresAt', '>', new Date().toISOString())
    .executeTakeFirst();
  return row ? { id: Number(row.id), email: String(row.email), role: row.role as Role } : null;
}

export function requireRoles(roles: Role[]) {
  return async (request: FastifyRequest) => {
    if (!request.user) throw unauthorized();
    if (!roles.includes(request.user.role)) throw forbidden();
  };
}

export function checkAccountsModel(engine: Engine): void {
  const missing = ACCOUNT_FIELDS.filter((f) => !(f in engine.accounts.props));
  if (missing.length || !engine.accounts.secrets.has('password')) {
    throw new Error(`The accounts entity "${engine.accounts.entity}" needs email, role and a secret password`);
  }
}

/** Creates the first admin when no account exists; returns the generated password when one was made up. */
export async function ensureFirstAdmin(engine: Engine, email?: string, password?: string): Promise<{ email: string; password?: string } | undefined> {
  const any = await engine.db.selectFrom(engine.accounts.table).select('id').limit(1).executeTakeFirst();
  if (any) return undefined;
  const adminEmail = email ?? 'admin@example.com';
  const generated = password ? undefined : randomBytes(12).toString('base64url');
  const now = new Date().toISOString();
  const row: Record<string, unknown> = { email: adminEmail, role: 'admin', [secretColumn('password')]: await hashPassword(password ?? generated!) };
  if (engine.accounts.hasColumn('createdAt')) row.createdAt = now;
  if (engine.accounts.hasColumn('updatedAt')) row.updatedAt = now;
  await engine.db.insertInto(engine.accounts.table).values(row).execute();
  return { email: adminEmail, password: generated };
}

export function registerAuth(app: FastifyInstance, engine: Engine, limits: AttemptLimits = DEFAULT_LIMITS): void {
  const perAccount = new AttemptWindow(limits.perAccount, limits.windowMs);
  const perAddress = new AttemptWindow(limits.perAddress, limits.windowMs);
  const validateLogin = objectValidator(
    { email: { type: 'string', minLength: 1, maxLength: 254 }, password: { type: 'string', minLength: 1, maxLength: 200 } },
    ['email', 'password'],
  );

  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    request.user = await userForToken(engine, tokenFromHeader(request.headers.authorization));
  });

  app.post('/v1/user/login', async (request) => {
    const input = readRaw(request, 'json');
    check(validateLogin, input);
    const email = String(input.email).trim().toLowerCase();
    const address = request.ip;
    const attempt = { id: null, email, role: null };
    if (perAccount.isBlocked(email) || perAddress.isBlocked(address)) {
      await engine.db.transaction().execute((trx) => engine.audit.write(trx, attempt, '/v1/user/loginRefused'));
      throw tooManyRequests();
    }
    const account = await engine.db
      .selectFrom(engine.accounts.table)
      .select(['id', 'email', 'role', secretColumn('password')])
      .where('email', '=', String(input.email).trim())
      .executeTakeFirst();
    const stored = account ? String(account[secretColumn('password')] ?? '') : await dummyHashPromise;
    const ok = (await verifyPassword(String(input.password), stored)) && !!account;
    if (!ok) {
      perAccount.record(email);
      perAddress.record(address);
      await engine.db.transaction().execute((trx) => engine.audit.write(trx, attempt, '/v1/user/loginFailed'));
      throw unauthorized('Wrong e-mail or password');
    }
    perAccount.reset(email);
    const user: AuthUser = { id: Number(account!.id), email: String(account!.email), role: account!.role as Role };
    const token = newToken();
    const now = Date.now();
    await engine.db.transaction().execute(async (trx) => {
      await trx
        .insertInto(TOKENS_TABLE)
        .values({
          userId: user.id,
          tokenHash: sha256(token),
          createdAt: new Date(now).toISOString(),
          expiresAt: new Date(now + TOKEN_LIFETIME_MS).toISOString(),
        })
        .execute();
      await engine.audit.write(trx, user, '/v1/user/login');
    });
    return { result: true, data: { token, user } };
  });

  app.post('/v1/user/logout', async (request) => {
    if (!request.user) throw unauthorized();
    const input = readRaw(request, 'json');
    if (Object.keys(input).length) throw badRequest(`${Object.keys(input)[0]}: is not an accepted field`);
    const token = tokenFromHeader(request.headers.authorization)!;
    const user = request.user;
    await engine.db.transaction().execute(async (trx) => {
      await trx.deleteFrom(TOKENS_TABLE).where('tokenHash', '=', sha256(token)).execute();
      await engine.audit.write(trx, user, '/v1/user/logout');
    });
    return { result: true, data: {} };
  });
}
