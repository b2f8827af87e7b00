// What SQLite's `synchronous` costs (server/db/database.ts chooses FULL): acknowledged writes per second with
// FULL and with NORMAL, on the same temporary database, in one run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../server/app.ts';

const WRITES = 1000;

export async function durability(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'panel-bench-'));
  const app = await buildApp({ config: { dataDir, databaseUrl: undefined, adminEmail: 'bench@x.io', adminPassword: 'bench-password-1', distDir: join(dataDir, 'none') } });
  try {
    const login = await app.inject({ method: 'POST', url: '/v1/user/login', payload: { email: 'bench@x.io', password: 'bench-password-1' } });
    const headers = { authorization: login.json().data.token };
    const rate = async (mode: string) => {
      await sql.raw(`pragma synchronous = ${mode}`).execute(app.engine.db);
      const started = performance.now();
      for (let i = 0; i < WRITES; i++) {
        const reply = await app.inject({ url: `/v1/admin/platform/add?name=${mode}-${i}&maxVersion=1.2.3`, headers });
        if (reply.statusCode !== 200) throw new Error(reply.body);
      }
      return WRITES / ((performance.now() - started) / 1000);
    };
    const normal = await rate('NORMAL');
    const full = await rate('FULL');
    console.log(`durability (SQLite WAL, ${WRITES} sequential writes with their audit rows)`);
    console.log(`synchronous=NORMAL ${normal.toFixed(0).padStart(6)} writes/s`);
    console.log(`synchronous=FULL   ${full.toFixed(0).padStart(6)} writes/s  (${((full / normal) * 100).toFixed(0)}% of NORMAL)`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
