// Login throttling that slows a guesser down instead of locking the account. An attempt is reserved (counted
// as a failure) before the password is hashed, so a parallel burst cannot slip through; a success gives the
// reservation back. Three buckets: one account from one address, one address over all accounts, and one
// account over the addresses that never logged into it (so the real user's own address is not slowed by a
// guesser elsewhere). Past its free attempts a bucket makes each attempt wait: 1 s after the last failure,
// doubling with every failure up to a cap. The counts live in a table (login_attempts), read and written in
// one transaction that holds a lock, so every process on the database counts against the same limits and a
// restart forgets nothing.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Capabilities } from '../db/database.ts';
export interface AttemptLimits {
  /** Free failures of one account from one address per window. */
  perAccount: number;
  /** Free failures from one address over all accounts per window. */
  perAddress: number;
  /** Free failures of one account from addresses that never logged into it, per window. */
  perAccountAnywhere?: number;
  windowMs: number;
  /** The wait after the first failure past the free ones; it doubles with each further failure. */
  baseDelayMs?: number;
  /** The longest wait of the per-pair and per-address buckets. */
  maxDelayMs?: number;
  /** The longest wait of the account-wide bucket (short: a real user on a new address competes in it). */
  maxAccountDelayMs?: number;
  /** Audit rows of failed and refused logins per client address and overall per window (default FAILED_LOGIN_ROWS). */
  failedLoginRows?: { perKey: number; overall: number; windowMs: number };
}

export const DEFAULT_LIMITS: AttemptLimits = {
  perAccount: 5,
  perAddress: 20,
  perAccountAnywhere: 20,
  windowMs: 15 * 60 * 1000,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60 * 1000,
  maxAccountDelayMs: 60 * 1000,
};

/** How long an address that logged into an account stays known to it. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;
/** How often a process deletes the rows past their window. */
const PRUNE_EVERY_MS = 10_000;

/** Failures per bucket and key (`bucket` pair, address or account), and the addresses that logged into an account (`known`). */
export const ATTEMPTS_TABLE = 'login_attempts';

type BucketName = 'pair' | 'address' | 'account';

export type Reservation =
  | { ok: true; succeeded(): Promise<void> }
  | { ok: false; retryAfterSeconds: number };

/**
 * The address a limit counts: an IPv4 address as it is, an IPv6 address by its /64 (one host usually holds a
 * whole /64, so counting single addresses would give it billions of buckets).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}


/**
 * @example const reservation = await throttle.reserve('a@b.io', request.ip); if (!reservation.ok) refuse(reservation.retryAfterSeconds);
 *          ... if (passwordOk) await reservation.succeeded();
 */
export class LoginThrottle {
  private readonly buckets: Record<BucketName, { free: number; maxDelayMs: number }>;
  private readonly baseDelayMs: number;
  private prunedAt = 0;

  constructor(
    private readonly db: Kysely<any>,
    private readonly caps: Capabilities,
    private readonly limits: AttemptLimits = DEFAULT_LIMITS,
  ) {
    this.baseDelayMs = limits.baseDelayMs ?? DEFAULT_LIMITS.baseDelayMs!;
    const max = limits.maxDelayMs ?? DEFAULT_LIMITS.maxDelayMs!;
    this.buckets = {
      pair: { free: limits.perAccount, maxDelayMs: max },
      address: { free: limits.perAddress, maxDelayMs: max },
      account: { free: limits.perAccountAnywhere ?? DEFAULT_LIMITS.perAccountAnywhere!, maxDelayMs: limits.maxAccountDelayMs ?? DEFAULT_LIMITS.maxAccountDelayMs! },
    };
  }

  /** Milliseconds until a bucket holding these failure times (oldest first) lets the next attempt in. */
  private waitMs(bucket: BucketName, hits: number[], now: number): number {
    const { free, maxDelayMs } = this.buckets[bucket];
    if (hits.length < free) return 0;
    const delay = Math.min(this.baseDelayMs * 2 ** Math.min(hits.length - free, 30), maxDelayMs);
    return Math.max(0, hits[hits.length - 1] + delay - now);
  }

  /** Runs `work` in a transaction no other reservation of any process interleaves with. */
  private exclusive<T>(work: (trx: Kysely<any>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await this.caps.lockKey(trx, 'login-throttle');
      return work(trx);
    });
  }

  private async prune(trx: Kysely<any>, now: number): Promise<void> {
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await trx
      .deleteFrom(ATTEMPTS_TABLE)
      .where((eb) =>
        eb.or([
          eb.and([eb('bucket', '<>', 'known'), eb('at', '<=', now - this.limits.windowMs)]),
          eb.and([eb('bucket', '=', 'known'), eb('at', '<=', now - KNOWN_ADDRESS_MS)]),
        ]),
      )
      .execute();
  }

  /** Counts an attempt before the password is checked; refuses it (with the wait) when a bucket says wait. */
  reserve(account: string, ip: string, now = Date.now()): Promise<Reservation> {
    const address = addressKey(ip);
    const keys: Record<BucketName, string> = { pair: `${account}\n${address}`, address, account };
    return this.exclusive(async (trx) => {
      await this.prune(trx, now);
      const known = await trx
        .selectFrom(ATTEMPTS_TABLE)
        .select('at')
        .where('bucket', '=', 'known')
        .where('key', '=', keys.pair)
        .where('at', '>', now - KNOWN_ADDRESS_MS)
        .executeTakeFirst();
      const counted: BucketName[] = known ? ['pair', 'address'] : ['pair', 'address', 'account'];
      const rows = await trx
        .selectFrom(ATTEMPTS_TABLE)
        .select(['bucket', 'at'])
        .where((eb) => eb.or(counted.map((b) => eb.and([eb('bucket', '=', b), eb('key', '=', keys[b])]))))
        .where('at', '>', now - this.limits.windowMs)
        .orderBy('at')
        .execute();
      const wait = Math.max(...counted.map((b) => this.waitMs(b, rows.filter((r) => r.bucket === b).map((r) => Number(r.at)), now)));
      if (wait > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      const ref = randomUUID();
      await trx.insertInto(ATTEMPTS_TABLE).values(counted.map((bucket) => ({ bucket, key: keys[bucket], at: now, ref }))).execute();
      return {
        ok: true,
        // The pair's count starts over; the address's and the account's get this attempt back; the address is known.
        succeeded: () =>
          this.exclusive(async (done) => {
            await done.deleteFrom(ATTEMPTS_TABLE).where('bucket', '=', 'pair').where('key', '=', keys.pair).execute();
            await done.deleteFrom(ATTEMPTS_TABLE).where('ref', '=', ref).execute();
            await done.deleteFrom(ATTEMPTS_TABLE).where('bucket', '=', 'known').where('key', '=', keys.pair).execute();
            await done.insertInto(ATTEMPTS_TABLE).values({ bucket: 'known', key: keys.pair, at: Date.now(), ref }).execute();
          }),
      };
    });
  }
}
