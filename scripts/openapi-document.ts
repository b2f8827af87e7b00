// The server's /openapi.json, from an app built on a temporary SQLite database and asked through inject (no port,
// no panel build needed). `npx tsx scripts/openapi-document.ts <out.json>` writes it to a file; scripts/lint-openapi.ts lints it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../server/app.ts';

export async function openApiDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'openapi-document-'));
  const app = await buildApp({ config: { dataDir, databaseUrl: undefined, adminPassword: 'openapi-document-1' }, logger: false });
  try {
    const reply = await app.inject({ url: '/openapi.json' });
    if (reply.statusCode !== 200) throw new Error(`GET /openapi.json answered ${reply.statusCode}: ${reply.body}`);
    return reply.json();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: npx tsx scripts/openapi-document.ts <out.json>');
  writeFileSync(out, JSON.stringify(await openApiDocument(), null, 2));
}
