// socket.io on the app's own HTTP server. The handshake needs a browser Origin of the panel's hosts (or none,
// as a non-browser client sends) and a live session's token (auth.token, or ?token= for old clients). Each
// socket joins a room for its role, its account and its token: the hub's batches go to each role with only
// the item types its manifests' `live` gives that role, and an ended session loses its sockets at once. A session's
// sockets and each connection's packets are limited (server/plugins/live-limits.ts).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import type { Config } from '../config.ts';
import type { Engine } from '../core/context.ts';
import { createLiveHub, liveAudiences, type LiveHub, type SessionSelector } from '../core/live-hub.ts';
import { liveTokenHashes, tokenFromHeader, userForToken } from './auth.ts';
import { sha256 } from './passwords.ts';
import { connectRedis, type SharedAdapter } from './redis.ts';
import { registerLiveLists } from './live-lists.ts';
import { DEFAULT_LIVE_LIMITS, limitLive, type LiveLimits } from './live-limits.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live hub: items for the dashboard and ended sessions, to the sockets of the roles they concern. */
    live: LiveHub;
  }
}

export interface LiveOptions {
  /** Host names the panel is served on (PANEL_HOSTS, else PUBLIC_URL's and the local ones). */
  panelHosts: string[];
  /** Other origins allowed to call the API (CORS_ORIGINS). */
  corsOrigins: string[];
  /** How often connected sockets are checked against their session (idle timeout, lifetime, another process's logout). */
  sweepMs?: number;
  /** Several processes (REDIS_URL): broadcasts reach every process's sockets (server/plugins/redis.ts). */
  adapter?: SharedAdapter;
  /** Sockets per session and client events per second (server/plugins/live-limits.ts); a setting left out takes its default. */
  limits?: Partial<LiveLimits>;
}

/** Tells a socket's client that its session ended (it then takes the "login again" path) before it is cut. */
export const SESSION_ENDED_EVENT = 'sessionEnded';

/** True when a browser's Origin header names a panel host or an allowed CORS origin. */
export function originAllowed(origin: string, options: Pick<LiveOptions, 'panelHosts' | 'corsOrigins'>): boolean {
  if (options.corsOrigins.includes(origin)) return true;
  try {
    return options.panelHosts.includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

const roomOf = (which: SessionSelector) => ('userId' in which ? `user:${which.userId}` : `token:${which.tokenHash}`);

export function registerLive(app: FastifyInstance, engine: Pick<Engine, 'accounts' | 'audit' | 'changes' | 'db' | 'live' | 'sessions'>, options: LiveOptions): Server {
  const io = new Server(app.server, {
    path: '/socket.io',
    cors: options.corsOrigins.length ? { origin: options.corsOrigins } : undefined,
    adapter: options.adapter?.adapter,
    // A page on another site must not open a socket with a token it got hold of; non-browser clients send no Origin.
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      callback(null, !origin || originAllowed(origin, options));
    },
  });
  io.use((socket, next) => {
    const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const fromQuery = socket.handshake.query.token;
    const token = tokenFromHeader(typeof fromAuth === 'string' ? fromAuth : typeof fromQuery === 'string' ? fromQuery : undefined);
    userForToken(engine, token)
      .then((user) => {
        if (!user) return next(new Error('unauthorized'));
        socket.data.user = user;
        socket.data.tokenHash = sha256(token!);
        next();
      })
      .catch(() => next(new Error('unauthorized')));
  });
  const limits: LiveLimits = {
    socketsPerSession: options.limits?.socketsPerSession ?? DEFAULT_LIVE_LIMITS.socketsPerSession,
    eventsPerSecond: options.limits?.eventsPerSecond ?? DEFAULT_LIVE_LIMITS.eventsPerSecond,
  };
  limitLive(app, engine, io, limits, !!options.adapter);
  io.on('connection', (socket) => {
    void socket.join([`role:${socket.data.user.role}`, `user:${socket.data.user.id}`, `token:${socket.data.tokenHash}`]);
  });

  const endSessions = (which: SessionSelector) => {
    io.to(roomOf(which)).emit(SESSION_ENDED_EVENT);
    io.in(roomOf(which)).disconnectSockets(true);
  };
  engine.live.attach({
    send(items) {
      // The roles some live item type reaches (schemas/roles.json's names that a `live` declaration lists).
      for (const role of new Set([...engine.live.audiences.values()].flat())) {
        const visible = items.filter((item) => engine.live.audiences.get(item.type)?.includes(role));
        if (visible.length) io.to(`role:${role}`).emit('dataQueue', visible);
      }
    },
    endSessions,
    everyProcess: !!options.adapter,
  });

  // Sessions also end by time, and by a logout another process served without REDIS_URL: each sweep cuts the
  // sockets they left. Each process sweeps its own sockets.
  const sweep = async () => {
    const sockets = await io.local.fetchSockets();
    const hashes = [...new Set(sockets.map((s) => String(s.data.tokenHash)))];
    const alive = await liveTokenHashes(engine, hashes);
    for (const tokenHash of hashes) if (!alive.has(tokenHash)) endSessions({ tokenHash });
  };
  const timer = setInterval(
    () => sweep().catch((error) => app.log.error({ err: error }, 'live socket sweep failed')),
    options.sweepMs ?? Math.min(60_000, engine.sessions.idleMs / 4),
  );
  timer.unref();

  // Open sockets would keep the HTTP server from closing: a SIGTERM must end the process promptly.
  app.addHook('preClose', async () => {
    clearInterval(timer);
    io.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()));
    await options.adapter?.close();
  });
  return io;
}

/** The `live-hub` plugin: decorates `live`, which the writers announce to, whether or not sockets listen yet. */
export const liveHubPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('live', createLiveHub(liveAudiences(app.manifests)));
  },
  { name: 'live-hub', dependencies: ['manifests'], decorators: { fastify: ['manifests'] }, fastify: '5.x' },
);

/**
 * The `live` plugin: socket.io on the app's server (with REDIS_URL, shared by every process through Redis) and the live
 * lists; a socket's handshake is checked by `auth`'s sessions.
 */
export const livePlugin = fp(
  async (app: FastifyInstance, options: Omit<LiveOptions, 'adapter'> & { redis: Pick<Config, 'redisUrl' | 'redisPrefix'>; sessions: Engine['sessions'] }) => {
    const { redis, sessions, ...live } = options;
    const context = { db: app.db, accounts: app.accounts, audit: app.audit, changes: app.changes, live: app.live, manifests: app.manifests, sessions };
    const io = registerLive(app, context, { ...live, adapter: await connectRedis(app, redis) });
    const stopLiveLists = registerLiveLists(context, io);
    app.addHook('onClose', async () => stopLiveLists());
  },
  {
    name: 'live',
    dependencies: ['manifests', 'db', 'audit', 'live-hub', 'changes', 'auth'],
    decorators: { fastify: ['db', 'accounts', 'audit', 'changes', 'live', 'manifests'] },
    fastify: '5.x',
  },
);
