// Entry point (`npm run serve`): builds the app from the environment and listens on PORT.
import { buildApp } from './app.ts';
import { serverActions } from './actions/index.ts';
import { loadConfig } from './config.ts';

const config = loadConfig();
try {
  const app = await buildApp({ config, logger: process.env.LOG_REQUESTS === '1', actions: serverActions });
  if (app.firstAdmin?.password) {
    console.log(`Created the first admin ${app.firstAdmin.email} with the password: ${app.firstAdmin.password}`);
    console.log('It is shown only this once; change it after logging in.');
  } else if (app.firstAdmin) {
    console.log(`Created the first admin ${app.firstAdmin.email} from ADMIN_EMAIL/ADMIN_PASSWORD`);
  }
  await app.listen({ port: config.port, host: config.host });
  console.log(`Server listening on http://${config.host}:${config.port} (data in ${config.databaseUrl ? 'PostgreSQL' : config.dataDir})`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
