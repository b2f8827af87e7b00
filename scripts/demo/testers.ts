// Demo data of issue 5: tester lists, app-info records, goals and an experiment with users and achieved goals.
// The demo command calls seedTesters(app, adminToken) on the running app: what the panel writes goes through
// its real API calls; what devices report (app info, experiment users, achieved goals) has no panel call and
// is inserted into those tables, as the devices' backend would.
import type { FastifyInstance } from 'fastify';

interface Envelope {
  result: boolean;
  data?: any;
  message?: string;
}

async function call(app: FastifyInstance, token: string, method: 'GET' | 'POST', url: string, data: Record<string, unknown>): Promise<any> {
  const asQuery = method === 'GET';
  const response = await app.inject({
    method,
    url: asQuery ? `${url}?${new URLSearchParams(Object.entries(data).map(([k, v]) => [k, String(v)]))}` : url,
    headers: { authorization: token, ...(asQuery ? {} : { 'content-type': 'application/json' }) },
    payload: asQuery ? undefined : JSON.stringify(data),
  });
  const body = JSON.parse(response.body) as Envelope;
  if (!body.result) throw new Error(`demo data: ${method} ${url} failed: ${body.message}`);
  return body.data;
}

/** The multipart form the experiment add call takes (SPEC 7), encoded by hand for inject(). */
function multipart(fields: Record<string, string>): { payload: string; contentType: string } {
  const boundary = 'demo-testers-boundary';
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Fills the issue-5 screens. `whitelabelIds` and `platformIds` are records the demo already made (the first
 * ones are used); without them, ids 1 and 1, 2 are assumed.
 * @example await seedTesters(app, token, { whitelabelIds: [1, 2], platformIds: [1, 2] })
 */
export async function seedTesters(
  app: FastifyInstance,
  adminToken: string,
  { whitelabelIds = [1], platformIds = [1, 2] }: { whitelabelIds?: number[]; platformIds?: number[] } = {},
): Promise<void> {
  const post = (url: string, data: Record<string, unknown>) => call(app, adminToken, 'POST', url, data);
  const get = (url: string, data: Record<string, unknown>) => call(app, adminToken, 'GET', url, data);
  const db = app.engine.db;

  await post('/v1/admin/testersIP/addArray', {
    ips: ['10.20.0.0/24', '10.20.1.7', '172.16.5.0/28', '192.168.10.1/32'].map((ip, i) => ({ ip, vendor: i % 2 ? 'lg' : 'samsung' })),
  });
  await get('/v1/admin/testersIP/add', { ip: '203.0.113.9/32', vendor: 'custom', description: 'office Wi-Fi' });
  for (const [i, whitelabelId] of whitelabelIds.entries()) {
    await post('/v1/admin/testersPhones/add', { whitelabelId, phones: [`+7900000000${i}`, `+7900000010${i}`], isActive: i === 0 });
  }

  await db
    .insertInto('app_infos')
    .values(
      ['anna', 'boris', 'carmen', 'dmitri', 'eve'].map((login, i) => ({
        email: `${login}@example.com`,
        login,
        appInstallId: `demo-install-${i + 1}`,
        buildDate: `2026-0${(i % 9) + 1}-15`,
        buildHash: `a1b2c3${i}`,
        version: `1.${i}.0`,
        whitelabel: 'demo',
        platform: i % 2 ? 'webos' : 'tizen',
        userId: `user-${i + 1}`,
        active: i === 3 ? 'no' : 'yes',
      })),
    )
    .execute();

  for (const [goalName, description] of [['purchase', 'bought a subscription'], ['trial', 'started a free trial'], ['retention-7d', 'came back after a week']]) {
    await post('/v1/admin/goalsAbtesting/add', { goalName, description });
  }

  const form = multipart({
    whitelabelId: String(whitelabelIds[0]),
    platformIds: JSON.stringify(platformIds.slice(0, 2)),
    modelNames: JSON.stringify(['UE55TU7100', 'OLED55C1']),
    recordsCount: '100',
    isActive: 'false',
    isCollecting: 'true',
    isRandomSaveEnable: 'true',
    probability: '0.5',
    versionsDeploymentSettings: JSON.stringify([
      { count: 50, groupName: 'control', customUrl: '', files: {} },
      { count: 50, groupName: 'new-player', customUrl: 'https://cdn.example.com/ab/new-player/', files: {} },
    ]),
  });
  const added = await app.inject({ method: 'POST', url: '/v1/admin/abtesting/add', headers: { authorization: adminToken, 'content-type': form.contentType }, payload: form.payload });
  const experiment = (JSON.parse(added.body) as Envelope).data as { id: number };
  if (!experiment) throw new Error(`demo data: experiment add failed: ${added.body}`);

  const installs = Array.from({ length: 12 }, (_, i) => `ab-install-${i + 1}`);
  await db
    .insertInto('experiment_users')
    .values(
      installs.map((appInstallId, i) => ({
        abtestingId: experiment.id,
        appInstallId,
        modelName: i % 2 ? 'OLED55C1' : 'UE55TU7100',
        version: '1.20.0',
        whitelabel: 'demo',
        platform: i % 2 ? 'webos' : 'tizen',
        userId: `ab-user-${i + 1}`,
      })),
    )
    .execute();
  await db
    .insertInto('achieved_goals')
    .values(
      installs.slice(0, 6).map((appInstallId, i) => ({
        appInstallId,
        userId: `ab-user-${i + 1}`,
        goalName: i % 3 === 0 ? 'purchase' : 'trial',
        goalDateTime: new Date(Date.UTC(2026, 10, 1 + i, 12)).toISOString(),
        goalParams: JSON.stringify({ group: i % 2 ? 'new-player' : 'control' }),
        abtestingId: experiment.id,
        stuckingCount: i % 2,
      })),
    )
    .execute();
}
