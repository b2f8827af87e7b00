// `npm run restore <folder> [--stop-server]`: puts a backup of `npm run backup` back (same DATA_DIR /
// DATABASE_URL as the server). While a server runs on that data it refuses (exit code 2, nothing changed);
// --stop-server stops the server first (SIGTERM to the pids the data lock knows, then waits for them to close).
// The upload folders it replaces are kept beside, renamed.
import { resolve } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { restore, ServerRunningError } from '../server/backup.ts';

const STOP_FLAG = '--stop-server';
const args = process.argv.slice(2);
const folders = args.filter((a) => a !== STOP_FLAG);
if (folders.length !== 1 || folders[0].startsWith('--')) {
  console.error(`Usage: npm run restore -- <backup folder> [${STOP_FLAG}]   (without ${STOP_FLAG}, stop the server first)`);
  process.exit(1);
}
const source = resolve(folders[0]);
try {
  const { keptAside, stopped } = await restore(loadConfig(), source, { stopServer: args.includes(STOP_FLAG) });
  for (const server of stopped) console.log(`Stopped the server (pid ${server.pid}) before restoring`);
  console.log(`Restored ${source}. Start the server: it checks files and rows before serving.`);
  for (const folder of keptAside) console.log(`The files that were there are kept in ${folder}`);
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error instanceof ServerRunningError ? 2 : 1);
}
