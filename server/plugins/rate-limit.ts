// Login throttling that slows a guesser down instead of locking the account. An attempt is reserved (counted
// as a failure) before the password is hashed, so a parallel burst cannot slip through; a success gives the
// reservation back. Three buckets: one account from one address, one address over all accounts, and one
// account over the addresses that never logged into it (so the real user's own address is not slowed by a
// guesser elsewhere). Past its free attempts a bucket makes each attempt wait: 1 s after the last failure,
// doubling with every failure up to a cap. In-memory, one process: reset on restart (see README).
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
/** Bounds of the in-memory maps, so a flood of made-up e-mails and addresses cannot exhaust memory. */
const MAX_KEYS = 100_000;

/** Failure times of one key within the window, oldest first. */
class Bucket {
  private readonly hits = new Map<string, number[]>();
  constructor(
    private readonly free: number,
    private readonly windowMs: number,
    private readonly baseDelayMs: number,
    private readonly maxDelayMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  /** Milliseconds until `key` may try again (0: now). */
  waitMs(key: string, now: number): number {
    const list = this.recent(key, now);
    if (list.length < this.free) return 0;
    const delay = Math.min(this.baseDelayMs * 2 ** Math.min(list.length - this.free, 30), this.maxDelayMs);
    return Math.max(0, list[list.length - 1] + delay - now);
  }

  record(key: string, now: number): void {
    if (!this.hits.has(key) && this.hits.size >= MAX_KEYS) this.hits.delete(this.hits.keys().next().value!);
    this.hits.set(key, [...this.recent(key, now), now]);
  }

  /** Gives back one reserved attempt. */
  release(key: string, at: number): void {
    const list = this.hits.get(key);
    const index = list?.lastIndexOf(at) ?? -1;
    if (index >= 0) list!.splice(index, 1);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }
}

export type Reservation =
  | { ok: true; succeeded(): void }
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
 * @example const reservation = throttle.reserve('a@b.io', request.ip); if (!reservation.ok) refuse(reservation.retryAfterSeconds);
 *          ... if (passwordOk) reservation.succeeded();
 */
export class LoginThrottle {
  private readonly pair: Bucket;
  private readonly address: Bucket;
  private readonly account: Bucket;
  /** account -> address -> time of the last successful login from there. */
  private readonly known = new Map<string, Map<string, number>>();

  constructor(limits: AttemptLimits = DEFAULT_LIMITS) {
    const base = limits.baseDelayMs ?? DEFAULT_LIMITS.baseDelayMs!;
    const max = limits.maxDelayMs ?? DEFAULT_LIMITS.maxDelayMs!;
    this.pair = new Bucket(limits.perAccount, limits.windowMs, base, max);
    this.address = new Bucket(limits.perAddress, limits.windowMs, base, max);
    this.account = new Bucket(
      limits.perAccountAnywhere ?? DEFAULT_LIMITS.perAccountAnywhere!,
      limits.windowMs,
      base,
      limits.maxAccountDelayMs ?? DEFAULT_LIMITS.maxAccountDelayMs!,
    );
  }

  private isKnown(account: string, address: string, now: number): boolean {
    const at = this.known.get(account)?.get(address);
    return at !== undefined && now - at < KNOWN_ADDRESS_MS;
  }

  /** Counts an attempt before the password is checked; refuses it (with the wait) when a bucket says wait. */
  reserve(account: string, ip: string, now = Date.now()): Reservation {
    const address = addressKey(ip);
    const pairKey = `${account}\n${address}`;
    const accountWide = !this.isKnown(account, address, now);
    const wait = Math.max(
      this.pair.waitMs(pairKey, now),
      this.address.waitMs(address, now),
      accountWide ? this.account.waitMs(account, now) : 0,
    );
    if (wait > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    this.pair.record(pairKey, now);
    this.address.record(address, now);
    if (accountWide) this.account.record(account, now);
    return {
      ok: true,
      succeeded: () => {
        this.pair.reset(pairKey);
        this.address.release(address, now);
        if (accountWide) this.account.release(account, now);
        this.remember(account, address, Date.now());
      },
    };
  }

  private remember(account: string, address: string, now: number): void {
    if (!this.known.has(account) && this.known.size >= MAX_KEYS) this.known.delete(this.known.keys().next().value!);
    const addresses = this.known.get(account) ?? new Map<string, number>();
    addresses.delete(address);
    addresses.set(address, now);
    // The most recent few addresses of an account are enough: home, office, phone.
    while (addresses.size > 20) addresses.delete(addresses.keys().next().value!);
    this.known.set(account, addresses);
  }
}
