// Several server processes behind one address (REDIS_URL set): socket.io's Redis adapter carries every
// broadcast of one process (live items, ended sessions) to the sockets of all of them, over Redis pub/sub
// channels named after REDIS_PREFIX. Without REDIS_URL nothing here runs and a process reaches its own sockets.
import type { FastifyInstance } from 'fastify';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import type { Config } from '../config.ts';

export interface SharedAdapter {
  /** socket.io's adapter constructor (`new Server(..., { adapter })`). */
  adapter: ReturnType<typeof createAdapter>;
  /** Ends the Redis connections; after the socket server closed. */
  close(): Promise<void>;
}

/**
 * Connects to Redis when REDIS_URL is set; the start fails when Redis cannot be reached, since the processes
 * would otherwise run as strangers to each other's sockets.
 * @example const shared = await connectRedis(app, config); new Server(http, { adapter: shared?.adapter });
 */
export async function connectRedis(app: FastifyInstance, config: Pick<Config, 'redisUrl' | 'redisPrefix'>): Promise<SharedAdapter | undefined> {
  if (!config.redisUrl) return undefined;
  const publisher = createClient({ url: config.redisUrl });
  const subscriber = publisher.duplicate();
  // A client without an error listener would end the process on a dropped connection; it reconnects by itself.
  for (const client of [publisher, subscriber]) client.on('error', (error: Error) => app.log.error({ err: error }, 'redis connection error'));
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
  } catch (error) {
    publisher.destroy();
    subscriber.destroy();
    throw new Error(`REDIS_URL: cannot connect to Redis (${(error as Error).message})`, { cause: error });
  }
  return {
    adapter: createAdapter(publisher, subscriber, { key: config.redisPrefix }),
    async close() {
      // The adapter's unsubscribes are sent without waiting; let them go out before the connections end.
      await new Promise((resolve) => setTimeout(resolve, 10));
      await Promise.all([publisher.close(), subscriber.close()].map((p) => p.catch(() => undefined)));
    },
  };
}
