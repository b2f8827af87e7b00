// `npm run demo`: fills an empty database (the one DATA_DIR / DATABASE_URL name) with a believable demo
// catalogue through the real routes, so a newcomer sees a working panel at once. Areas live in scripts/demo/.
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { closeSession, openSession } from '../server/plugins/sessions.ts';
import { FIRST_ACCOUNT_ROLE } from '../kernel/roles.ts';
import { catalogueAreas, type DemoContext } from './demo/catalogue.ts';
import { demoApi } from './demo/client.ts';
import { testersAreas } from './demo/testers.ts';
import { pipelinesAreas } from './demo/pipelines.ts';
import { describeExamples, devicesAreas } from './demo/devices.ts';

const config = loadConfig();
const app = await buildApp({ config });
let token: string | undefined;
try {
  const { engine } = app;
  for (const model of engine.models.values()) {
    if (model === engine.accounts || model.manifest.provides === 'audit-log') continue;
    const row = await engine.db.selectFrom(model.table).select('id').limit(1).executeTakeFirst();
    if (row) throw new Error(`The database already holds ${model.entity} records; the demo fills only an empty database.`);
  }
  // The demo writes as the first admin through a session of its own, so it needs no password: beside a running
  // server whose admin chose theirs long ago, the database settings are enough.
  const admin = await engine.db
    .selectFrom(engine.accounts.table)
    .select(['id', 'email'])
    .where('role', '=', FIRST_ACCOUNT_ROLE)
    .orderBy('id')
    .executeTakeFirst();
  if (!admin) throw new Error(`The database has users but no ${FIRST_ACCOUNT_ROLE}; the demo writes as one.`);
  const email = String(admin.email);
  token = await engine.db.transaction().execute((trx) => openSession(trx, engine, Number(admin.id)));
  const ctx: DemoContext = { api: await demoApi(app, token), ids: {} };
  for (const [label, fill] of [...catalogueAreas, ...testersAreas(engine.db), ...pipelinesAreas(engine.db), ...devicesAreas(app)]) {
    await fill(ctx);
    console.log(`demo: ${label}`);
  }
  console.log(['Test request shows each lookup rule with:', ...describeExamples()].join('\n'));
  console.log(`Demo data is in ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}. Log in as ${email}`);
  if (app.firstAdmin?.password) console.log(`with the password ${app.firstAdmin.password} (shown only this once).`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  if (token) await closeSession(app.engine.db, token);
  await app.close();
}
