// The per-address limit of the public device calls (manifest actions with `public: true`): a token bucket per
// client address (request.ip, which follows X-Forwarded-For only through TRUSTED_PROXIES). Over the limit a
// call is answered 429 with Retry-After before any handler runs. The buckets live in this process.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

export interface PublicRateLimit {
  /** Calls per minute per address, which is also how many may come at once (the bucket's size). */
  perMinute: number;
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
  constructor(
    private readonly size: number,
    private readonly maxAddresses = MAX_ADDRESSES,
  ) {
    this.perMs = size / 60_000;
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
    if (!bucket && this.buckets.size >= this.maxAddresses) this.prune(now);
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

declare module 'fastify' {
  interface FastifyInstance {
    publicBuckets?: AddressBuckets;
  }
}

/** Installs the buckets of this server; pruned every minute while it runs. */
export function registerPublicRateLimit(app: FastifyInstance, limit: PublicRateLimit = DEFAULT_PUBLIC_RATE_LIMIT): void {
  const buckets = new AddressBuckets(limit.perMinute);
  app.decorate('publicBuckets', buckets);
  const timer = setInterval(() => buckets.prune(), 60_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

/** The preHandler of a public call: the rate limit instead of a role rule. */
export function publicCallGate(app: FastifyInstance) {
  const buckets = app.publicBuckets;
  if (!buckets) throw new Error('public actions need registerPublicRateLimit() before the routes');
  // A callback hook, not an async one: this runs on every TV start, and a promise per call is measurable there.
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const wait = buckets.take(request.ip);
    if (wait === 0) return done();
    reply.status(429).header('retry-after', String(wait)).send({ result: false, message: `Too many requests from ${request.ip}; retry in ${wait} s`, code: 'ERR_RATE_LIMIT' });
  };
}
