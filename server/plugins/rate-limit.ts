// Login throttling that slows a guesser down instead of locking the account, and keeps a flood of anonymous logins
// from starving everything else. Three buckets: one account from one address, one address over all accounts, and
// one account over the addresses that never logged into it (so the real user's own address is not slowed by a
// guesser elsewhere). Past its free attempts a bucket makes each attempt wait: 1 s after the last failure, doubling
// with every failure up to a cap. An attempt is reserved (counted as a failure) before the password is hashed, so a
// parallel burst cannot slip through; a success gives the reservation back.
//
// Logins run in two lanes of bounded concurrency and queue: one for addresses that logged into the account before,
// one for everyone else. A login the lane cannot take is answered 429 at once, before any database work or hashing,
// so a flood holds at most a lane's worth of pool connections and libuv threads, and never delays a known address.
//
// The counts live in a table (login_attempts) so every process counts against the same limits and a restart forgets
// nothing. Each attempt reads its buckets there, adds this process's unwritten attempts, and decides without waiting
// in between (atomic within the process); the attempts are written in batches, one transaction every flushMs (250 ms), and a
// failure is answered only once written. Across processes the error is bounded: a process misses only the other
// processes' attempts decided but not yet written, at most a lane's admissions of one flushMs each.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { addressKey } from './address-key.ts';

export interface AttemptLimits {
  /** Free failures of one account from one address per window. */
  perAccount: number;
  /** Free failures from one address over all accounts per window. */
  perAddress: number;
  /** Free failures of one account from addresses that never logged into it, per accountWindowMs. */
  perAccountAnywhere?: number;
  windowMs: number;
  /** The window of the account-wide bucket: an hour, so its failures cannot start over every windowMs. */
  accountWindowMs?: number;
  /** The wait after the first failure past the free ones; it doubles with each further failure. */
  baseDelayMs?: number;
  /** The longest wait of the per-pair and per-address buckets. */
  maxDelayMs?: number;
  /** The longest wait of the account-wide bucket (short: a real user on a new address competes in it). */
  maxAccountDelayMs?: number;
  /** Audit rows of failed and refused logins per client address and overall per window (default FAILED_LOGIN_ROWS). */
  failedLoginRows?: { perKey: number; overall: number; windowMs: number };
  /**
   * Logins checked at once, and waiting, from addresses not known to their account (past both, 429), and the share
   * of the time the lane may hash (its places rest in between).
   */
  anonymousLane?: { concurrency: number; queue: number; busyShare?: number };
  /** The same for addresses that logged into the account before: a lane of their own. */
  knownLane?: { concurrency: number; queue: number };
  /** How often the attempts are written, in one transaction. */
  flushMs?: number;
}

export const DEFAULT_LIMITS: AttemptLimits = {
  perAccount: 5,
  perAddress: 20,
  perAccountAnywhere: 20,
  windowMs: 15 * 60 * 1000,
  // 20 free, then 1 s doubling to 60 s: at most ~85 guesses in any hour however many addresses take part.
  accountWindowMs: 60 * 60 * 1000,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60 * 1000,
  maxAccountDelayMs: 60 * 1000,
  // One scrypt (~70 ms) at a time, busy a third of the time, and ~2 s of waiting: a flood takes a third of one core
  // and one pool connection (on two cores a busier lane took half of /healthz's throughput, npm run bench floods).
  anonymousLane: { concurrency: 1, queue: 8, busyShare: 1 / 3 },
  knownLane: { concurrency: 1, queue: 32 },
  flushMs: 250,
};

/** How long an address that logged into an account stays known to it. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;
/** How often a process deletes the rows past their window. */
const PRUNE_EVERY_MS = 10_000;
/** How long a written attempt stays in memory too: longer than any read that began before it was written. */
const KEEP_WRITTEN_MS = 30_000;
/** Rows per insert statement (4 parameters each). */
const INSERT_CHUNK = 500;

/** Failures per bucket and key (`bucket` pair, address or account), and the addresses that logged into an account (`known`). */
export const ATTEMPTS_TABLE = 'login_attempts';

type BucketName = 'pair' | 'address' | 'account';

interface AttemptRow {
  bucket: string;
  key: string;
  at: number;
  ref: string;
}

export type Reservation =
  | { ok: true; known: boolean; succeeded(): Promise<void>; failed(): Promise<void> }
  | { ok: false; retryAfterSeconds: number };

/**
 * A bounded number of tasks at once and a bounded queue; a task that finds both full is refused at once. With a
 * `busyShare` below 1 each place rests after a task, so the lane's tasks take at most that share of its places' time.
 */
export class Lane {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Moving average of how long a task holds its place, for Retry-After. */
  private holdMs = 100;

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
    private readonly busyShare = 1,
  ) {}

  /** Runs `task` in the lane, or answers the seconds to wait when the lane and its queue are full. */
  async run<T>(task: () => Promise<T>): Promise<{ value: T } | { retryAfterSeconds: number }> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) return { retryAfterSeconds: this.retryAfterSeconds() };
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    const started = performance.now();
    try {
      return { value: await task() };
    } finally {
      const held = performance.now() - started;
      this.holdMs = 0.8 * this.holdMs + 0.2 * held;
      const handOver = () => {
        const next = this.waiting.shift();
        if (next) next();
        else this.running--;
      };
      const rest = held * (1 / this.busyShare - 1);
      if (rest >= 1) setTimeout(handOver, rest);
      else handOver();
    }
  }

  private retryAfterSeconds(): number {
    const cycleMs = this.holdMs / this.busyShare;
    return Math.max(1, Math.ceil((((this.waiting.length + this.running) / this.concurrency) * cycleMs) / 1000));
  }
}

/**
 * @example const outcome = await throttle.attempt('a@b.io', request.ip, () => checkPassword());
 *          if ('retryAfterSeconds' in outcome) refuse(outcome.retryAfterSeconds);
 */
export class LoginThrottle {
  private readonly buckets: Record<BucketName, { free: number; maxDelayMs: number; windowMs: number }>;
  private readonly baseDelayMs: number;
  private readonly flushMs: number;
  private readonly lanes: { known: Lane; anonymous: Lane };
  /** This process's attempts: unwritten (`written` unset), or written at `written` (performance.now()). */
  private own: (AttemptRow & { written?: number })[] = [];
  /** Settles when the attempts not yet taken by a flush are written. */
  private nextFlush: { promise: Promise<void>; resolve(): void; reject(error: unknown): void } | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | undefined;
  /** Account and address pairs known to have logged in (pair key -> when), for choosing the lane without a read. */
  private known = new Map<string, number>();
  private knownLoaded: Promise<void> | undefined;
  private prunedAt = 0;

  constructor(
    private readonly db: Kysely<any>,
    limits: AttemptLimits = DEFAULT_LIMITS,
  ) {
    this.baseDelayMs = limits.baseDelayMs ?? DEFAULT_LIMITS.baseDelayMs!;
    this.flushMs = limits.flushMs ?? DEFAULT_LIMITS.flushMs!;
    const max = limits.maxDelayMs ?? DEFAULT_LIMITS.maxDelayMs!;
    this.buckets = {
      pair: { free: limits.perAccount, maxDelayMs: max, windowMs: limits.windowMs },
      address: { free: limits.perAddress, maxDelayMs: max, windowMs: limits.windowMs },
      account: {
        free: limits.perAccountAnywhere ?? DEFAULT_LIMITS.perAccountAnywhere!,
        maxDelayMs: limits.maxAccountDelayMs ?? DEFAULT_LIMITS.maxAccountDelayMs!,
        windowMs: limits.accountWindowMs ?? DEFAULT_LIMITS.accountWindowMs!,
      },
    };
    const lane = (l: { concurrency: number; queue: number; busyShare?: number }) => new Lane(l.concurrency, l.queue, l.busyShare);
    this.lanes = { known: lane(limits.knownLane ?? DEFAULT_LIMITS.knownLane!), anonymous: lane(limits.anonymousLane ?? DEFAULT_LIMITS.anonymousLane!) };
  }

  /**
   * One login: takes a place in its lane (429 when there is none), reserves the attempt, runs `check` (the password
   * hash) only when no bucket says wait, and records the outcome: a success gives the reservation back, a failure
   * is answered once written. `check` answers the logged-in value, or undefined for a wrong password.
   */
  async attempt<T>(account: string, ip: string, check: () => Promise<T | undefined>): Promise<{ value: T | undefined } | { retryAfterSeconds: number }> {
    await this.loadKnown();
    const lane = this.known.has(this.pairKey(account, ip)) ? this.lanes.known : this.lanes.anonymous;
    const outcome = await lane.run(async () => {
      const reservation = await this.reserve(account, ip);
      return reservation.ok ? { reservation, value: await check() } : { retryAfterSeconds: reservation.retryAfterSeconds };
    });
    if ('retryAfterSeconds' in outcome) return outcome;
    if ('retryAfterSeconds' in outcome.value) return outcome.value;
    const { reservation, value } = outcome.value;
    await (value === undefined ? reservation.failed() : reservation.succeeded());
    return { value };
  }

  /** Writes what is still unwritten and stops the timer (the app closing). */
  async close(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.flush().catch(() => {});
  }

  private pairKey(account: string, ip: string): string {
    return `${account}\n${addressKey(ip)}`;
  }

  private loadKnown(): Promise<void> {
    this.knownLoaded ??= this.db
      .selectFrom(ATTEMPTS_TABLE)
      .select(['key', 'at'])
      .where('bucket', '=', 'known')
      .where('at', '>', Date.now() - KNOWN_ADDRESS_MS)
      .execute()
      .then((rows) => {
        for (const r of rows) this.known.set(String(r.key), Number(r.at));
      })
      .catch((error) => {
        this.knownLoaded = undefined;
        throw error;
      });
    return this.knownLoaded;
  }

  /** Milliseconds until a bucket holding these failure times (oldest first) lets the next attempt in. */
  private waitMs(bucket: BucketName, hits: number[], now: number): number {
    const { free, maxDelayMs } = this.buckets[bucket];
    if (hits.length < free) return 0;
    const delay = Math.min(this.baseDelayMs * 2 ** Math.min(hits.length - free, 30), maxDelayMs);
    return Math.max(0, hits[hits.length - 1] + delay - now);
  }

  /** Counts an attempt before the password is checked; refuses it (with the wait) when a bucket says wait. */
  async reserve(account: string, ip: string, now = Date.now()): Promise<Reservation> {
    const address = addressKey(ip);
    const keys: Record<BucketName, string> = { pair: `${account}\n${address}`, address, account };
    const read = await this.db
      .selectFrom(ATTEMPTS_TABLE)
      .select(['bucket', 'key', 'at', 'ref'])
      .where((eb) =>
        eb.or([
          eb.and([eb('bucket', '=', 'known'), eb('key', '=', keys.pair), eb('at', '>', now - KNOWN_ADDRESS_MS)]),
          ...(['pair', 'address', 'account'] as const).map((b) => eb.and([eb('bucket', '=', b), eb('key', '=', keys[b]), eb('at', '>', now - this.buckets[b].windowMs)])),
        ]),
      )
      .execute();
    // From here to the decision nothing waits, so this process's attempts are all counted.
    const known = read.some((r) => r.bucket === 'known') || this.known.has(keys.pair);
    if (known) this.known.set(keys.pair, now);
    const counted: BucketName[] = known ? ['pair', 'address'] : ['pair', 'address', 'account'];
    const rows = new Map<string, AttemptRow>();
    for (const r of [...read, ...this.own]) {
      const row = { bucket: String(r.bucket), key: String(r.key), at: Number(r.at), ref: String(r.ref) };
      if ((counted as string[]).includes(row.bucket) && row.key === keys[row.bucket as BucketName] && row.at > now - this.buckets[row.bucket as BucketName].windowMs) {
        rows.set(`${row.ref}\n${row.bucket}`, row);
      }
    }
    const hits = (b: BucketName) => [...rows.values()].filter((r) => r.bucket === b).map((r) => r.at).sort((x, y) => x - y);
    const wait = Math.max(...counted.map((b) => this.waitMs(b, hits(b), now)));
    if (wait > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    const ref = randomUUID();
    this.own.push(...counted.map((bucket) => ({ bucket, key: keys[bucket], at: now, ref })));
    const written = this.scheduleFlush();
    return {
      ok: true,
      known,
      failed: () => written,
      // The pair's count starts over; the address's and the account's get this attempt back; the address is known.
      succeeded: async () => {
        this.own = this.own.filter((r) => r.ref !== ref && !(r.bucket === 'pair' && r.key === keys.pair));
        this.known.set(keys.pair, Date.now());
        // A flush that took this attempt must land first, or its rows would come back after the delete.
        await this.flushing.catch(() => {});
        await this.db.transaction().execute(async (done) => {
          await done.deleteFrom(ATTEMPTS_TABLE).where('bucket', '=', 'pair').where('key', '=', keys.pair).execute();
          await done.deleteFrom(ATTEMPTS_TABLE).where('ref', '=', ref).execute();
          await done.deleteFrom(ATTEMPTS_TABLE).where('bucket', '=', 'known').where('key', '=', keys.pair).execute();
          await done.insertInto(ATTEMPTS_TABLE).values({ bucket: 'known', key: keys.pair, at: Date.now(), ref }).execute();
        });
      },
    };
  }

  /** The promise of the flush that will write the attempts unwritten now; starts its timer. */
  private scheduleFlush(): Promise<void> {
    if (!this.nextFlush) {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
      // A failure's answer waits for it; an attempt that succeeded meanwhile does not, so no rejection goes unheard.
      promise.catch(() => {});
      this.nextFlush = { promise, resolve, reject };
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flushing = this.flush();
    }, this.flushMs);
    return this.nextFlush.promise;
  }

  /** Writes the unwritten attempts in one transaction (and deletes the rows past their window now and then). */
  private async flush(): Promise<void> {
    await this.flushing.catch(() => {});
    const waiter = this.nextFlush;
    this.nextFlush = undefined;
    const batch = this.own.filter((r) => r.written === undefined);
    const now = Date.now();
    const prune = now - this.prunedAt >= PRUNE_EVERY_MS;
    try {
      if (batch.length || prune) {
        await this.db.transaction().execute(async (trx) => {
          for (let i = 0; i < batch.length; i += INSERT_CHUNK) {
            await trx
              .insertInto(ATTEMPTS_TABLE)
              .values(batch.slice(i, i + INSERT_CHUNK).map(({ bucket, key, at, ref }) => ({ bucket, key, at, ref })))
              .execute();
          }
          if (prune) await this.prune(trx, now);
        });
        if (prune) this.prunedAt = now;
      }
      const at = performance.now();
      for (const r of batch) r.written = at;
      this.own = this.own.filter((r) => r.written === undefined || at - r.written < KEEP_WRITTEN_MS);
      waiter?.resolve();
    } catch (error) {
      // Tried again with the next flush; this one's failures are answered with the error (a 503 for an outage).
      if (this.own.some((r) => r.written === undefined)) void this.scheduleFlush();
      waiter?.reject(error);
    }
  }

  private async prune(trx: Kysely<any>, now: number): Promise<void> {
    const longest = Math.max(...Object.values(this.buckets).map((b) => b.windowMs));
    await trx
      .deleteFrom(ATTEMPTS_TABLE)
      .where((eb) =>
        eb.or([
          eb.and([eb('bucket', '<>', 'known'), eb('at', '<=', now - longest)]),
          eb.and([eb('bucket', '=', 'known'), eb('at', '<=', now - KNOWN_ADDRESS_MS)]),
        ]),
      )
      .execute();
    for (const [key, at] of this.known) if (at <= now - KNOWN_ADDRESS_MS) this.known.delete(key);
  }
}
