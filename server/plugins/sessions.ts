// A session is a random token that the client keeps and a row that names only its hash. A login opens one; so does
// `npm run demo` for the first admin, which needs no password to fill a database beside a running server.
import type { Kysely } from 'kysely';
import { TOKENS_TABLE, type Engine } from '../core/context.ts';
import { newToken, sha256 } from './passwords.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Opens a session for an account inside the caller's transaction and returns its token; sessions that ended are
 * cleared on the way (their rows are only clutter).
 * @example const token = await openSession(trx, engine, user.id);
 */
export async function openSession(trx: Kysely<any>, engine: Pick<Engine, 'sessions'>, userId: number, now = Date.now()): Promise<string> {
  const token = newToken();
  await trx
    .deleteFrom(TOKENS_TABLE)
    .where((eb) => eb.or([eb('createdAt', '<=', iso(now - engine.sessions.lifetimeMs)), eb('lastUsedAt', '<=', iso(now - engine.sessions.idleMs))]))
    .execute();
  await trx
    .insertInto(TOKENS_TABLE)
    .values({
      userId,
      tokenHash: sha256(token),
      createdAt: iso(now),
      lastUsedAt: iso(now),
      // Informational: the lifetime is checked from createdAt, so a changed SESSION_LIFETIME applies to every session.
      expiresAt: iso(now + engine.sessions.lifetimeMs),
    })
    .execute();
  return token;
}

/** Ends the session of a token (its row goes; a process that kept it forgets it within SESSION_RECHECK_MS). */
export async function closeSession(db: Kysely<any>, token: string): Promise<void> {
  await db.deleteFrom(TOKENS_TABLE).where('tokenHash', '=', sha256(token)).execute();
}
