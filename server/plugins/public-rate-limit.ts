// The per-address limit of the public device calls (manifest actions with `public: true`), per client address
// (request.ip, which follows X-Forwarded-For only through TRUSTED_PROXIES): an IPv4 address, or an IPv6 /64 (one
// subscriber's network: a client given a /64 picks any of its 2^64 addresses, so counting single addresses let 700
// of 700 calls from one /64 through). Over the limit a call is answered 429 with Retry-After before any handler
// runs. One process keeps a token bucket per address in memory (PUBLIC_RATE_BURST calls at once, refilled at
// PUBLIC_RATE_LIMIT a minute); with REDIS_URL (several processes) the count is shared in Redis, a sliding window per
// address (the burst in the time the rate takes to send it), so an address gets the same limit however its calls
// are spread over the processes. Redis unreachable or slow: each process falls back to its own buckets (and says so once), so
// the device lookup never depends on Redis being up.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { createClient } from 'redis';
import { addressKey, clientIp } from './address-key.ts';

export interface PublicRateLimit {
  /** Calls per minute per address. */
  perMinute: number;
  /**
   * Calls one address may send at once before the per-minute rate applies (the bucket's size; PUBLIC_RATE_BURST);
   * perMinute when absent. A bucket as large as the minute let 30 addresses send 18,000 calls in a few seconds, which
   * no event loop serves beside the staff's calls; a TV makes a few calls when it starts.
   */
  burst?: number;
}

export const DEFAULT_PUBLIC_RATE_LIMIT: PublicRateLimit = { perMinute: 600 };

/** Buckets kept at most; past it, full buckets are dropped first, then the oldest. */
const MAX_ADDRESSES = 100_000;

interface Bucket {
  tokens: number;
  at: number;
}

export class AddressBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  /** `perMinute` calls a minute refill a bucket of `size` calls (perMinute when not given). */
  constructor(
    perMinute: number,
    private readonly maxAddresses = MAX_ADDRESSES,
    private readonly size = perMinute,
  ) {
    this.perMs = perMinute / 60_000;
  }

  private level(bucket: Bucket, now: number): number {
    return Math.min(this.size, bucket.tokens + (now - bucket.at) * this.perMs);
  }

  /** Takes one call from the address's bucket: 0 when allowed, else the seconds until the next call may pass. */
  take(address: string, now = Date.now()): number {
    const bucket = this.buckets.get(address);
    const tokens = bucket ? this.level(bucket, now) : this.size;
    if (tokens < 1) {
      bucket!.tokens = tokens;
      bucket!.at = now;
      return Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000));
    }
    if (bucket) {
      // In place: a new object per call was garbage on every TV start (a Map keeps a key's place when set again, so
      // the prune's "oldest first" order is the same).
      bucket.tokens = tokens - 1;
      bucket.at = now;
      return 0;
    }
    if (this.buckets.size >= this.maxAddresses) this.prune(now);
    this.buckets.set(address, { tokens: tokens - 1, at: now });
    return 0;
  }

  /** Forgets full buckets (they hold nothing a new one would not); if that is not enough, the oldest ones. */
  prune(now = Date.now()): void {
    for (const [address, bucket] of this.buckets) if (this.level(bucket, now) >= this.size) this.buckets.delete(address);
    for (const address of this.buckets.keys()) {
      if (this.buckets.size < this.maxAddresses) break;
      this.buckets.delete(address);
    }
  }

  get addresses(): number {
    return this.buckets.size;
  }
}

/** How long a call waits for Redis before its address is counted by this process alone. */
const SHARED_WAIT_MS = 250;
const MINUTE_MS = 60_000;

// One sliding window per address (a minute, or the time the rate takes to send a burst), from two fixed windows: the current one's count plus the previous one's, weighted
// by how much of it the minute still covers. A call past the limit is not counted (as in the local bucket), so a
// client that keeps calling regains calls as the minute slides. Both keys carry the address as hash tag (one slot).
const SLIDING_MINUTE = `
local limit = tonumber(ARGV[1])
local weight = tonumber(ARGV[2])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
if previous * weight + current + 1 > limit then return {0, current, previous} end
current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {1, current, previous}
`;

/**
 * Seconds until a refused address may call again: while the previous window's weight fades, or once the current
 * window has become the previous one and faded enough.
 */
export function slidingWait(limit: number, current: number, previous: number, elapsedMs: number, windowMs = MINUTE_MS): number {
  const weight = 1 - elapsedMs / windowMs;
  const excess = previous * weight + current + 1 - limit;
  let wait: number;
  if (previous > 0 && (excess * windowMs) / previous <= windowMs - elapsedMs) wait = (excess * windowMs) / previous;
  else wait = windowMs - elapsedMs + (current > limit - 1 ? windowMs * (1 - (limit - 1) / current) : 0);
  return Math.max(1, Math.ceil(wait / 1000));
}

export interface SharedLimitOptions {
  url: string;
  /** REDIS_PREFIX: keys are `<prefix>:public-rate:{<address>}:<window>`. */
  prefix: string;
  perMinute: number;
  /** Calls at once (perMinute when absent): the window is the time the rate takes to send them, its limit the burst. */
  burst?: number;
  /** This process's own buckets: what counts while Redis cannot. */
  local: AddressBuckets;
  /** Where the fallback and the recovery are told, once each time. */
  log: (line: string) => void;
}

/** The limit shared by every process on one Redis, with this process's buckets as the fallback. */
export class SharedLimit {
  private readonly client;
  private sha = '';
  private degraded = false;
  private closed = false;
  /** Until the first connection attempt ends, calls are counted here without a word (the process is starting). */
  private starting = true;
  /** The sliding window: `limit` calls in `windowMs` (a burst of 60 at 600 a minute: 60 calls in any 6 s). */
  private readonly window: { limit: number; windowMs: number };
  constructor(private readonly options: SharedLimitOptions) {
    const limit = options.burst ?? options.perMinute;
    this.window = { limit, windowMs: Math.max(1000, Math.round((MINUTE_MS * limit) / options.perMinute)) };
    // No offline queue: while Redis is away a call is not held back waiting for it, it is counted here.
    this.client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5000) },
    });
    this.client.on('error', (error: Error) => this.fallBack(error.message));
    this.client.on('ready', () => this.recovered());
    this.client.connect().then(
      () => (this.starting = false),
      (error: Error) => {
        this.starting = false;
        this.fallBack(error.message);
      },
    );
  }

  /** True while the count is Redis's (connected, not fallen back). */
  get shared(): boolean {
    return this.client.isReady && !this.degraded;
  }

  private fallBack(reason: string): void {
    if (this.degraded || this.closed) return;
    this.degraded = true;
    this.options.log(`PUBLIC_RATE_LIMIT: Redis cannot count the device calls (${reason}); each process limits its own until it can`);
  }

  private recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.options.log('PUBLIC_RATE_LIMIT: Redis counts the device calls of every process again');
  }

  private async run(keys: string[], args: string[]): Promise<number[]> {
    if (!this.sha) this.sha = await this.client.scriptLoad(SLIDING_MINUTE);
    try {
      return (await this.client.evalSha(this.sha, { keys, arguments: args })) as number[];
    } catch (error) {
      if (!/NOSCRIPT/.test((error as Error).message)) throw error;
      this.sha = '';
      return (await this.client.eval(SLIDING_MINUTE, { keys, arguments: args })) as number[];
    }
  }

  /** Takes one call for the address: 0 when allowed, else the seconds until the next call may pass. */
  async take(address: string, now = Date.now()): Promise<number> {
    if (!this.client.isReady) {
      if (!this.starting) this.fallBack('not connected');
      return this.options.local.take(address, now);
    }
    const { limit, windowMs } = this.window;
    const window = Math.floor(now / windowMs);
    const elapsed = now - window * windowMs;
    const key = (w: number) => `${this.options.prefix}:public-rate:{${address}}:${w}`;
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        this.run([key(window), key(window - 1)], [String(limit), String(1 - elapsed / windowMs), String(2 * windowMs)]),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${SHARED_WAIT_MS} ms`)), SHARED_WAIT_MS))),
      ]);
      this.recovered();
      const [allowed, current, previous] = answer.map(Number);
      return allowed ? 0 : slidingWait(limit, current, previous, elapsed, windowMs);
    } catch (error) {
      this.fallBack((error as Error).message);
      return this.options.local.take(address, now);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await (this.client.isOpen ? this.client.close() : Promise.resolve(this.client.destroy())).catch(() => undefined);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    publicBuckets?: AddressBuckets;
    publicSharedLimit?: SharedLimit;
  }
}

/**
 * Installs the limit of this server: its own buckets (pruned every minute while it runs), and with `shared` (REDIS_URL)
 * the count in Redis that every process uses.
 */
export function registerPublicRateLimit(
  app: FastifyInstance,
  limit: PublicRateLimit = DEFAULT_PUBLIC_RATE_LIMIT,
  shared?: { url: string; prefix: string; log?: (line: string) => void },
): void {
  const buckets = new AddressBuckets(limit.perMinute, MAX_ADDRESSES, limit.burst);
  app.decorate('publicBuckets', buckets);
  const timer = setInterval(() => buckets.prune(), 60_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  if (!shared) return;
  const log = shared.log ?? ((line: string) => console.error(line));
  const sharedLimit = new SharedLimit({ url: shared.url, prefix: shared.prefix, perMinute: limit.perMinute, burst: limit.burst, local: buckets, log });
  app.decorate('publicSharedLimit', sharedLimit);
  app.addHook('onClose', async () => sharedLimit.close());
}

const refuse = (reply: FastifyReply, key: string, wait: number) =>
  reply.status(429).header('retry-after', String(wait)).send({ result: false, message: `Too many requests from ${key}; retry in ${wait} s`, code: 'ERR_RATE_LIMIT' });

/** The preHandler of a public call: the rate limit instead of a role rule. */
export function publicCallGate(app: FastifyInstance) {
  const buckets = app.publicBuckets;
  if (!buckets) throw new Error('public actions need registerPublicRateLimit() before the routes');
  const shared = app.publicSharedLimit;
  if (shared) {
    return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const key = addressKey(clientIp(request));
      void shared.take(key).then((wait) => (wait === 0 ? done() : refuse(reply, key, wait)));
    };
  }
  // A callback hook, not an async one: this runs on every TV start, and a promise per call is measurable there.
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const key = addressKey(clientIp(request));
    const wait = buckets.take(key);
    if (wait === 0) return done();
    refuse(reply, key, wait);
  };
}

/** The `public-rate-limit` plugin: decorates `publicBuckets` (and `publicSharedLimit` with REDIS_URL), which the public calls' gate reads. */
export const publicRateLimitPlugin = fp(
  async (app: FastifyInstance, options: { limit?: PublicRateLimit; shared?: { url: string; prefix: string; log?: (line: string) => void } }) =>
    registerPublicRateLimit(app, options.limit, options.shared),
  { name: 'public-rate-limit', fastify: '5.x' },
);
