// `npm run restore <folder>`: puts a backup of `npm run backup` back, with the server stopped (same DATA_DIR /
// DATABASE_URL as the server). The upload folders it replaces are kept beside, renamed.
import { resolve } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { restore } from '../server/backup.ts';

if (!process.argv[2]) {
  console.error('Usage: npm run restore <backup folder>   (stop the server first)');
  process.exit(1);
}
try {
  const { keptAside } = await restore(loadConfig(), resolve(process.argv[2]));
  console.log(`Restored ${resolve(process.argv[2])}. Start the server: it checks files and rows before serving.`);
  for (const folder of keptAside) console.log(`The files that were there are kept in ${folder}`);
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
