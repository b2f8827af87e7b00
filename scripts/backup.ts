// `npm run backup [folder]`: a consistent copy of the database and the uploaded files, while the server runs
// (same DATA_DIR / DATABASE_URL as the server). Default folder: backups/<date and time>.
import { resolve } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { backup } from '../server/backup.ts';

const destination = resolve(process.argv[2] ?? `backups/${new Date().toISOString().replace(/[:.]/g, '-')}`);
try {
  const info = await backup(loadConfig(), destination);
  console.log(`Backed up the ${info.database} database and ${info.folders.join(', ') || 'no upload folders'} to ${destination}`);
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
