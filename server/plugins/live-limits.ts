// Limits of the live socket, so one session token cannot hold the server's memory or event loop: at most
// LIVE_SOCKETS_PER_SESSION sockets per session, counted over every process (the handshake past it gets a
// connect_error the client can read), and LIVE_EVENTS_PER_SECOND packets per client connection, a token bucket
// (past it the socket is cut). The panel itself sends no events (src/core/live/live-store.ts): only heartbeats.
// Each refused handshake and each cut socket writes one audit row, under a budget per session.
import type { FastifyInstance } from 'fastify';
import type { Server, Socket } from 'socket.io';
import { budgetedRows, type AuditTarget } from './audit.ts';
import type { Actor } from '../core/audit-log.ts';

export interface LiveLimits {
  /** Sockets one session (one token) may hold at once, on every process together (LIVE_SOCKETS_PER_SESSION). */
  socketsPerSession: number;
  /** Packets a client connection may send per second on average (LIVE_EVENTS_PER_SECOND); see BURST_SECONDS. */
  eventsPerSecond: number;
}

/** 20 tabs of one login are far more than a person keeps; a network drop's old sockets also count until they time out. */
export const DEFAULT_LIVE_LIMITS: LiveLimits = { socketsPerSession: 20, eventsPerSecond: 10 };

/** A connection's bucket holds this many seconds' worth of packets: a burst that size passes at once. */
export const BURST_SECONDS = 10;

/** Audit rows of refused and cut sockets: per session (or address) and overall, per minute; the rest make one summary row. */
export const LIVE_LIMIT_ROWS = { perKey: 5, overall: 100, windowMs: 60_000 };

/** How long a handshake waits for the other processes' counts (through Redis) before it counts this process's sockets only. */
export const COUNT_TIMEOUT_MS = 2000;

/** The event that tells a client why its socket is cut, just before it is; its payload is {message, code}. */
export const TOO_MANY_EVENTS_EVENT = 'tooManyEvents';

/** What a refused handshake's connect_error carries besides its message: the API's stable code and the limit. */
export interface LimitErrorData {
  code: 'ERR_RATE_LIMIT';
  limit: number;
}

/**
 * A token bucket: `perSecond` tokens a second, holding at most `size`; take() is false once it is empty.
 * @example const b = new TokenBucket(10, 100); b.take() // true for the first 100 at once, then 10 a second
 */
export class TokenBucket {
  private tokens: number;
  private at: number;
  constructor(
    private readonly perSecond: number,
    private readonly size: number,
    now = Date.now(),
  ) {
    this.tokens = size;
    this.at = now;
  }

  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.size, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

const ANONYMOUS: Actor = { id: null, email: null, role: null };

/**
 * Installs both limits on `io`; call it after the middleware that sets socket.data.user and socket.data.tokenHash.
 * `shared` is true when the sockets of every process are counted through the adapter (REDIS_URL).
 */
export function limitLive(app: FastifyInstance, engine: AuditTarget, io: Server, limits: LiveLimits, shared: boolean): void {
  const rows = budgetedRows(app, engine, LIVE_LIMIT_ROWS, '/socket.io/limitedSuppressed', 'refused or cut live sockets', 'sessions');
  const audit = (key: string, actor: Actor, path: string, detail: string) =>
    rows.write(key, actor, path, { outcome: 'throttled', detail }).catch((error) => app.log.error({ err: error }, 'could not log a live socket limit'));

  // fetchSockets, not a Redis counter: it counts the sockets that exist, so a crashed process's never stay counted;
  // a handshake is rare (a tab opening, a reconnect), one round trip through the adapter costs it nothing felt.
  const countEverywhere = async (room: string): Promise<number> => {
    if (!shared) return io.local.in(room).fetchSockets().then((s) => s.length);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${COUNT_TIMEOUT_MS} ms`)), COUNT_TIMEOUT_MS)));
    try {
      return (await Promise.race([io.in(room).fetchSockets(), late])).length;
    } catch (error) {
      // Redis away or a process silent: this process's own sockets still bound the session here.
      app.log.warn({ err: error }, 'live sockets of a session could not be counted on every process; counting this one only');
      return (await io.local.in(room).fetchSockets()).length;
    } finally {
      clearTimeout(timer);
    }
  };

  // One check at a time per session in this process, each one ending after the socket it let in has joined its
  // rooms: simultaneous handshakes of one token all see each other instead of all seeing the same free slot.
  const checking = new Map<string, Promise<void>>();
  io.use((socket, next) => {
    const tokenHash = String(socket.data.tokenHash);
    const previous = checking.get(tokenHash) ?? Promise.resolve();
    const turn = previous.then(async () => {
      const open = await countEverywhere(`token:${tokenHash}`);
      if (open < limits.socketsPerSession) {
        next();
        // The socket connects and joins its rooms on the next tick (socket.io's namespace), before this turn ends.
        await new Promise((resolve) => setImmediate(resolve));
        return;
      }
      const error = new Error(
        `This session already has ${open} live sockets open, the most it may (LIVE_SOCKETS_PER_SESSION); close a tab of the panel or try again later`,
      ) as Error & { data: LimitErrorData };
      error.data = { code: 'ERR_RATE_LIMIT', limit: limits.socketsPerSession };
      next(error);
      const user = socket.data.user as Actor;
      void audit(`refused:${tokenHash}`, user, '/socket.io/tooManySockets', `live socket refused: the session already has ${open} open (limit ${limits.socketsPerSession})`);
    }).catch((error: Error) => next(error));
    checking.set(tokenHash, turn);
    void turn.then(() => {
      if (checking.get(tokenHash) === turn) checking.delete(tokenHash);
    });
  });

  // Counted per client connection (its sockets, heartbeats and handshakes alike), from its first packet on.
  const size = limits.eventsPerSecond * BURST_SECONDS;
  io.engine.on('connection', (conn: Socket['conn']) => {
    const bucket = new TokenBucket(limits.eventsPerSecond, size);
    const since = Date.now();
    let packets = 0;
    let cut = false;
    conn.on('packet', () => {
      packets++;
      if (cut || bucket.take()) return;
      cut = true;
      const sockets = [...io.of('/').sockets.values()].filter((s) => s.conn === conn);
      const message = `This connection sent more than ${limits.eventsPerSecond} events a second (LIVE_EVENTS_PER_SECOND); it is closed`;
      for (const s of sockets) {
        s.emit(TOO_MANY_EVENTS_EVENT, { message, code: 'ERR_RATE_LIMIT' });
        s.disconnect(true);
      }
      if (!sockets.length) conn.close();
      const user = sockets[0]?.data.user as Actor | undefined;
      const key = sockets.length ? `cut:${String(sockets[0].data.tokenHash)}` : `cut:${conn.remoteAddress}`;
      const seconds = ((Date.now() - since) / 1000).toFixed(1);
      const who = user ? '' : ` from ${conn.remoteAddress} before any session`;
      void audit(key, user ?? ANONYMOUS, '/socket.io/tooManyEvents', `live socket cut${who}: ${packets} packets in ${seconds} s, past ${limits.eventsPerSecond} a second (bursts of ${size})`);
    });
  });
}
