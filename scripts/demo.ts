// `npm run demo`: fills an empty database (the one DATA_DIR / DATABASE_URL name) with a believable demo
// catalogue through the real routes, so a newcomer sees a working panel at once. Areas live in scripts/demo/.
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { catalogueAreas, type DemoContext } from './demo/catalogue.ts';
import { demoApi } from './demo/client.ts';
import { testersAreas } from './demo/testers.ts';
import { pipelinesAreas } from './demo/pipelines.ts';
import { describeExamples, devicesAreas } from './demo/devices.ts';

const config = loadConfig();
const app = await buildApp({ config });
try {
  const { engine } = app;
  for (const model of engine.models.values()) {
    if (model === engine.accounts || model.manifest.provides === 'audit-log') continue;
    const row = await engine.db.selectFrom(model.table).select('id').limit(1).executeTakeFirst();
    if (row) throw new Error(`The database already holds ${model.entity} records; the demo fills only an empty database.`);
  }
  const email = app.firstAdmin?.email ?? config.adminEmail;
  const password = app.firstAdmin?.password ?? config.adminPassword;
  if (!email || !password) throw new Error('The database already has users: set ADMIN_EMAIL and ADMIN_PASSWORD of an admin.');
  const login = await app.inject({ method: 'POST', url: '/v1/user/login', payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`Could not log in as ${email}: ${login.json().message}`);
  const ctx: DemoContext = { api: await demoApi(app, login.json().data.token), ids: {} };
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
  await app.close();
}
