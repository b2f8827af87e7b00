// Entry point (`npm run serve`): builds the app from the environment and listens on PORT.
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { holdServerLock } from './db/locks.ts';
import { availableHosts } from './plugins/panel.ts';

/** How long a stop (SIGTERM, SIGINT) waits for requests in progress before closing their connections. */
const SHUTDOWN_GRACE_MS = 10_000;
/** During a stop, how often the connections that went idle since are closed. */
const IDLE_CLOSE_MS = 50;
/** How long after that the database may take to close before the process exits anyway. */
const SHUTDOWN_FORCE_MS = 5_000;

/**
 * The address to open: PUBLIC_URL, or the first panel host on the port listened on. The listen address (0.0.0.0 by
 * default) is not one: a browser that opens it sends a Host that is not a panel host and gets only "Нет доступа!".
 */
function panelUrl(config: Config, address: AddressInfo | string | null): string {
  if (config.publicUrl) return config.publicUrl;
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = availableHosts(config)[0];
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

const config = loadConfig();
try {
  // Held until the process ends, so that `npm run restore` refuses to replace the data under this server.
  const lock = await holdServerLock(config, (line) => console.error(line));
  const app = await buildApp({ config, logger: process.env.LOG_REQUESTS === '1' });
  if (app.firstAdmin?.password) {
    console.log(`Created the first admin ${app.firstAdmin.email} with the password: ${app.firstAdmin.password}`);
    console.log('It is shown only this once; change it after logging in.');
  } else if (app.firstAdmin) {
    console.log(`Created the first admin ${app.firstAdmin.email} from ADMIN_EMAIL/ADMIN_PASSWORD`);
  }
  await app.listen({ port: config.port, host: config.host });
  console.log(`The panel is on ${panelUrl(config, app.server.address())} (listening on ${config.host}, data in ${config.databaseUrl ? 'PostgreSQL' : config.dataDir})`);
  // A stop lets the requests in progress finish, then closes the database. A connection still open after the grace
  // period (a client that stopped sending or reading) is closed, so a stop always ends and always closes the database.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    // A keep-alive connection whose request was still in progress at the stop stays open once answered (the server
    // closes the idle ones only when the stop begins), and held the close until the grace period ended: with list reads
    // on worker threads a request is in progress longer, so a stop under list calls took 10 s. Closed as they go idle.
    const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_CLOSE_MS).unref();
    const giveUp = setTimeout(() => {
      console.error(`The server did not close within ${(SHUTDOWN_GRACE_MS + SHUTDOWN_FORCE_MS) / 1000} s of the stop signal; exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + SHUTDOWN_FORCE_MS);
    app.close().then(
      () => lock.release().then(() => process.exit(0)),
      (error: unknown) => {
        clearInterval(idle);
        clearTimeout(force);
        clearTimeout(giveUp);
        console.error(error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
