// socket.io on the app's own HTTP server. The handshake needs a valid token (auth.token or ?token=);
// connected sockets receive the live hub's `dataQueue` batches.
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { Engine } from '../crud/context.ts';
import { tokenFromHeader, userForToken } from './auth.ts';

export function registerLive(app: FastifyInstance, engine: Engine, corsOrigins: string[]): Server {
  const io = new Server(app.server, { path: '/socket.io', cors: corsOrigins.length ? { origin: corsOrigins } : undefined });
  io.use((socket, next) => {
    const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const fromQuery = socket.handshake.query.token;
    const token = typeof fromAuth === 'string' ? fromAuth : typeof fromQuery === 'string' ? fromQuery : undefined;
    userForToken(engine, tokenFromHeader(token))
      .then((user) => {
        if (!user) return next(new Error('unauthorized'));
        socket.data.user = user;
        next();
      })
      .catch(() => next(new Error('unauthorized')));
  });
  engine.live.attach((items) => io.emit('dataQueue', items));
  // Open sockets would keep the HTTP server from closing: a SIGTERM must end the process promptly.
  app.addHook('preClose', async () => {
    io.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });
  return io;
}
