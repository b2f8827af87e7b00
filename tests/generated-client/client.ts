// A client as a new user of the API would write it: types generated from the running server's /openapi.json by
// openapi-typescript (into .tmp/generated-client/api.ts, by tests/server/generated-client.test.ts), calls made
// with openapi-fetch. It is type-checked on its own (tests/generated-client/tsconfig.json) with no cast, no
// non-null assertion and no @ts-expect-error: if the contract loses a field, a parameter or an answer's type,
// this file stops compiling. The test then runs it against the server and checks every answer.
import createClient from 'openapi-fetch';
import type { paths } from '../../.tmp/generated-client/api.ts';

/** An answer's `data`, or a failure naming the call. */
function dataOf<T>(call: string, answer: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (!answer.data) throw new Error(`${call}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data.data;
}

export interface Run {
  /** The ids each entity's add answered, to show what was done. */
  added: Record<string, number>;
  matchedBy: string;
  lookupUrls: string[];
  appinfoCreated: boolean;
  stuckingCount: number;
}

export async function runClient(baseUrl: string, email: string, password: string, whitelabel: string): Promise<Run> {
  const anonymous = createClient<paths>({ baseUrl });
  const login = dataOf('login', await anonymous.POST('/v1/user/login', { body: { email, password } }));
  const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${login.token}` } });
  const added: Record<string, number> = {};

  // platform: GET calls with their input in the query string.
  const platform = dataOf('platform add', await api.GET('/v1/admin/platform/add', { params: { query: { name: 'tizen', maxVersion: '1.20.40' } } }));
  added.platform = platform.id;
  const spare = dataOf('platform add', await api.GET('/v1/admin/platform/add', { params: { query: { name: 'webos', maxVersion: '1.0.0' } } }));
  dataOf('platform edit', await api.GET('/v1/admin/platform/edit', { params: { query: { id: spare.id, maxVersion: '1.0.1', updatedAt: spare.updatedAt ?? undefined } } }));
  const platforms = dataOf('platform list', await api.GET('/v1/admin/platform/get', { params: { query: { pageSize: 10, sortBy: 'name', sortOrder: 'asc' } } }));
  if (platforms.rows.map((row) => row.name).join() !== 'tizen,webos') throw new Error(`platforms: ${platforms.count}`);
  dataOf('platform destroy', await api.GET('/v1/admin/platform/destroy', { params: { query: { id: spare.id } } }));

  // goal: a JSON body, and DELETE with a query.
  const goal = dataOf('goal add', await api.POST('/v1/admin/goalsAbtesting/add', { body: { goalName: 'started', description: 'the app started' } }));
  added.goal = goal.id;
  const edited = dataOf('goal edit', await api.POST('/v1/admin/goalsAbtesting/edit', { body: { id: goal.id, description: 'the app has started' } }));
  if (edited.description !== 'the app has started') throw new Error('goal edit');
  const other = dataOf('goal add', await api.POST('/v1/admin/goalsAbtesting/add', { body: { goalName: 'left' } }));
  dataOf('goal list', await api.GET('/v1/admin/goalsAbtesting/get', { params: { query: { page: 1 } } }));
  dataOf('goal destroy', await api.DELETE('/v1/admin/goalsAbtesting/destroy', { params: { query: { id: other.id } } }));

  // testerEmail and testerIP: GET calls; an IP without a mask is stored as /32.
  const testerEmail = dataOf('testerEmail add', await api.GET('/v1/admin/testersEmails/add', { params: { query: { email: 'qa@example.com', active: true } } }));
  added.testerEmail = testerEmail.id;
  dataOf('testerEmail edit', await api.GET('/v1/admin/testersEmails/edit', { params: { query: { id: testerEmail.id, active: false } } }));
  dataOf('testerEmail list', await api.GET('/v1/admin/testersEmails/get', { params: { query: {} } }));
  dataOf('testerEmail remove', await api.GET('/v1/admin/testersEmails/remove', { params: { query: { id: testerEmail.id } } }));

  const testerIp = dataOf('testerIP add', await api.GET('/v1/admin/testersIP/add', { params: { query: { ip: '203.0.113.7', vendor: 'samsung' } } }));
  added.testerIP = testerIp.id;
  const ip = dataOf('testerIP edit', await api.GET('/v1/admin/testersIP/edit', { params: { query: { id: testerIp.id, vendor: 'lg', description: 'lab TV' } } }));
  if (ip.ip !== '203.0.113.7/32' || ip.vendor !== 'lg') throw new Error(`testerIP edit: ${ip.ip} ${ip.vendor}`);
  dataOf('testerIP list', await api.GET('/v1/admin/testersIP/get', { params: { query: {} } }));
  dataOf('testerIP remove', await api.GET('/v1/admin/testersIP/remove', { params: { query: { id: testerIp.id } } }));

  // The whitelabel made by the test, found by its name.
  const whitelabels = dataOf('whitelabel list', await api.GET('/v1/admin/whitelabel/get', { params: { query: { pageSize: 100 } } }));
  const wl = whitelabels.rows.find((row) => row.name === whitelabel);
  if (!wl) throw new Error(`no whitelabel ${whitelabel}`);

  // installation: a relation answered as an object.
  const installation = dataOf('installation add', await api.GET('/v1/admin/installation/add', { params: { query: { name: 'living room', userId: 'u-1', whitelabelId: wl.id } } }));
  added.installation = installation.id;
  dataOf('installation edit', await api.GET('/v1/admin/installation/edit', { params: { query: { id: installation.id, name: 'bedroom' } } }));
  dataOf('installation list', await api.GET('/v1/admin/installation/get', { params: { query: {} } }));
  dataOf('installation destroy', await api.GET('/v1/admin/installation/destroy', { params: { query: { id: installation.id } } }));

  // techSupport: POST, PUT and DELETE.
  const support = dataOf('techSupport add', await api.POST('/v1/admin/tech-support/add', { body: { whitelabelId: wl.id, url: 'https://help.example.com/' } }));
  added.techSupport = support.id;
  dataOf('techSupport update', await api.PUT('/v1/admin/tech-support/update', { body: { id: support.id, url: 'https://help.example.com/contact' } }));
  dataOf('techSupport list', await api.GET('/v1/admin/tech-support/get', { params: { query: {} } }));

  // The builds dropped by the test, then a combination pinning one to a device, with custom URLs: a JSON field in a
  // query string is a parameter whose content is application/json, its JSON text.
  const reloaded = dataOf('build reload', await api.GET('/v1/admin/build/reload'));
  if (reloaded.found < 1) throw new Error('no build found');
  const builds = dataOf('build list', await api.GET('/v1/admin/build/get', { params: { query: { ownWhitelabel: whitelabel } } }));
  const build = builds.rows[0];
  if (!build) throw new Error('no build listed');
  const combination = dataOf(
    'combination add',
    await api.GET('/v1/admin/combination/add', { params: { query: { buildId: build.id, appInstallId: 'tv-1', customBuildUrls: JSON.stringify(['https://cdn.example.com/app.js']) } } }),
  );
  added.combination = combination.id;
  dataOf('combination edit', await api.GET('/v1/admin/combination/edit', { params: { query: { id: combination.id, description: 'the lab TV' } } }));
  dataOf('combination list', await api.GET('/v1/admin/combination/get', { params: { query: {} } }));

  // The device calls: no token; `platform` is JSON text in the query string, as SPEC fixes it.
  const lookup = dataOf(
    'lookup',
    await anonymous.GET('/v1/combination/get', { params: { query: { platform: JSON.stringify({ name: 'tizen' }), whitelabel, appInstallId: 'tv-1' } } }),
  );
  const appinfo = dataOf('appinfo report', await anonymous.POST('/v1/appinfo/report', { body: { appInstallId: 'tv-1', version: '1.20.34', platform: 'tizen' } }));
  const reported = dataOf('achievedGoal report', await anonymous.POST('/v1/achievedGoals/report', { body: { appInstallId: 'tv-1', goalName: 'started' } }));

  dataOf('combination destroy', await api.GET('/v1/admin/combination/destroy', { params: { query: { id: combination.id } } }));
  dataOf('techSupport remove', await api.DELETE('/v1/admin/tech-support/remove', { params: { query: { id: support.id } } }));
  dataOf('logout', await api.POST('/v1/user/logout', { body: {} }));
  return { added, matchedBy: lookup.matchedBy, lookupUrls: lookup.build.urls, appinfoCreated: appinfo.created, stuckingCount: reported.stuckingCount };
}
