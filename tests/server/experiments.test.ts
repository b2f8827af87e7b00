// A/B experiments (multipart add/edit with the shared rules, the Active switch), the users of a collection,
// goals and achieved goals, on both dialects.
import { beforeAll, expect, it } from 'vitest';
import { whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect, type Harness } from './harness.ts';

const blocks = (...counts: number[]) =>
  JSON.stringify(counts.map((count, i) => ({ count, groupName: `G${i}`, customUrl: '', files: { tizen: [`bundle${i}.js`] } })));

let whitelabelId = 0;
/** Platform ids by name: tizen and webos are the experiments' platforms, androidtv is never selected. */
const platforms: Record<string, number> = {};

const experimentForm = (overrides: Record<string, string> = {}): Record<string, string> => ({
  whitelabelId: String(whitelabelId),
  platformIds: JSON.stringify([platforms.tizen, platforms.webos]),
  modelNames: '["UE55","QE65"]',
  recordsCount: '10',
  isActive: 'false',
  isCollecting: 'true',
  isRandomSaveEnable: 'true',
  probability: '1',
  versionsDeploymentSettings: blocks(4, 6),
  ...overrides,
});

async function addExperiment(h: Harness, overrides: Record<string, string> = {}) {
  return h.admin('POST', '/v1/admin/abtesting/add', { form: experimentForm(overrides) });
}

async function addUsers(h: Harness, abtestingId: number, users: { appInstallId: string; platform?: string; userId?: string }[]) {
  const rows = users.map((u) => ({ abtestingId, modelName: 'UE55', version: '1.2.3', whitelabel: 'acme', platform: 'tizen', userId: null, ...u }));
  await h.app.engine.db.insertInto('experiment_users').values(rows).execute();
}

forEachDialect('A/B experiments', (h) => {
  beforeAll(async () => {
    whitelabelId = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('abtest') })).body.data.id;
    for (const name of ['tizen', 'webos', 'androidtv']) {
      platforms[name] = (await h.admin('GET', '/v1/admin/platform/add', { query: { name, maxVersion: '01.20.34' } })).body.data.id;
    }
  });

  it('adds an experiment from a multipart form and lists it with its JSON fields', async () => {
    const reply = await addExperiment(h);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      whitelabelId,
      whitelabel: { name: 'abtest' },
      platformIds: [platforms.tizen, platforms.webos],
      modelNames: ['UE55', 'QE65'],
      recordsCount: 10,
      isActive: false,
      isCollecting: true,
      probability: 1,
      versionsDeploymentSettings: [{ count: 4, groupName: 'G0', files: { tizen: ['bundle0.js'] } }, { count: 6 }],
    });
    const list = await h.admin('GET', '/v1/admin/abtesting/get', { query: { whitelabelId } });
    expect(list.body.data.rows.map((r: { id: number }) => r.id)).toContain(reply.body.data.id);
  });

  it('gives a new experiment the defaults of the spec when the form leaves them out', async () => {
    const { isActive: _a, isCollecting: _c, isRandomSaveEnable: _r, probability: _p, ...rest } = experimentForm();
    const reply = await h.admin('POST', '/v1/admin/abtesting/add', { form: rest });
    expect(reply.body.data).toMatchObject({ isActive: false, isCollecting: true, isRandomSaveEnable: true, probability: 1 });
  });

  it.each<[Record<string, string | undefined>, string]>([
    [{ recordsCount: '11' }, 'Deployment: the counts add up to 10, not to the records count 11'],
    [{ versionsDeploymentSettings: blocks(5, 6) }, 'the counts add up to 11'],
    [{ probability: '1.5' }, 'Probability must be at most 1'],
    [{ probability: '-0.1' }, 'Probability must be at least 0'],
    [{ recordsCount: '0' }, 'Records count'],
    [{ recordsCount: 'ten' }, 'Records count must be a whole number'],
    [{ platformIds: '[]' }, 'Platforms'],
    [{ platformIds: '[0]' }, 'Platforms'],
    [{ platformIds: '[1,' }, 'Platforms is not valid JSON'],
    [{ modelNames: '[" UE55"]' }, 'Model names, item 1, is not in the expected form'],
    [{ whitelabelId: '' }, 'Whitelabel ID'],
    [{ whitelabelId: '99999' }, 'Whitelabel ID: there is no whitelabel with id 99999'],
    [{ isCollecting: 'maybe' }, 'Collecting users must be true or false'],
    [{ versionsDeploymentSettings: '[{"count": 10, "colour": "red"}]' }, 'colour'],
    [{ owner: 'x' }, 'owner is not an accepted field'],
    [{ platformIds: '[{tizen},99999]' }, 'Platforms: there is no platform with id 99999'],
    [{ platformIds: '[99998,{tizen},99999]' }, 'Platforms: there is no platform with id 99998, 99999'],
    [{ platformIds: '[{tizen},99999999999]' }, 'Platforms: there is no platform with id 99999999999'],
    [
      { versionsDeploymentSettings: JSON.stringify([{ count: 10, files: { tizen: ['a.js'], androidtv: ['b.js'] } }]) },
      'Deployment: group 1 has files for "androidtv", which is not a selected platform',
    ],
    [{ platformIds: '[{webos}]' }, 'Deployment: group 1 has files for "tizen", which is not a selected platform'],
    [{ isActive: 'true', isCollecting: 'true' }, 'Active: a new experiment cannot be active while it collects users'],
    [{ isActive: 'true', isCollecting: undefined }, 'Active: a new experiment cannot be active while it collects users'],
  ])('refuses to add an experiment with %j (400 naming it) and stores nothing', async (given, message) => {
    const before = await h.count('experiments');
    // {tizen} stands for that platform's id (known once beforeAll has run); undefined leaves the field out.
    const form = experimentForm();
    for (const [field, value] of Object.entries(given)) {
      if (value === undefined) delete form[field];
      else form[field] = value.replace(/\{(\w+)\}/g, (_, name: string) => String(platforms[name]));
    }
    const reply = await h.admin('POST', '/v1/admin/abtesting/add', { form });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ result: false, code: 'ERR_VALIDATION', message: expect.stringContaining(message) });
    expect(await h.count('experiments')).toBe(before);
  });

  it('adds an active experiment that does not collect, and keeps a probability while random save is off', async () => {
    const active = await addExperiment(h, { isActive: 'true', isCollecting: 'false' });
    expect(active.status).toBe(200);
    expect(active.body.data).toMatchObject({ isActive: true, isCollecting: false });
    const noRandom = await addExperiment(h, { isRandomSaveEnable: 'false', probability: '0.3' });
    expect(noRandom.status).toBe(200);
    expect(noRandom.body.data).toMatchObject({ isRandomSaveEnable: false, probability: 0.3 });
  });

  it('refuses on edit a platform that does not exist and files for a platform no longer selected', async () => {
    const id = String((await addExperiment(h)).body.data.id);
    const dangling = await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id, platformIds: `[${platforms.tizen},77777]` } });
    expect(dangling).toMatchObject({ status: 400, body: { message: 'Platforms: there is no platform with id 77777' } });
    const dropped = await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id, platformIds: `[${platforms.webos}]` } });
    expect(dropped.status).toBe(400);
    expect(dropped.body.message).toContain('group 1 has files for "tizen", which is not a selected platform');
    const moved = await h.admin('POST', '/v1/admin/abtesting/edit', {
      form: { id, platformIds: `[${platforms.webos}]`, versionsDeploymentSettings: JSON.stringify([{ count: 10, files: { webos: ['w.js'] } }]) },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ platformIds: [platforms.webos], versionsDeploymentSettings: [{ files: { webos: ['w.js'] } }] });
  });

  it('lets an active experiment collect again on edit: only a new one must start inactive', async () => {
    const id = (await addExperiment(h, { isActive: 'true', isCollecting: 'false' })).body.data.id;
    const collecting = await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id: String(id), isCollecting: 'true' } });
    expect(collecting.status).toBe(200);
    expect(collecting.body.data).toMatchObject({ isActive: true, isCollecting: true });
  });

  it('edits an experiment and checks the same rules against the record as it will be stored', async () => {
    const id = String((await addExperiment(h)).body.data.id);
    const edited = await h.admin('POST', '/v1/admin/abtesting/edit', { form: { ...experimentForm({ recordsCount: '12', versionsDeploymentSettings: blocks(6, 6) }), id } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ recordsCount: 12 });
    const badSum = await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id, recordsCount: '13' } });
    expect(badSum.status).toBe(400);
    expect(badSum.body.message).toContain('not to the records count 13');
    const badProbability = await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id, probability: '1.5' } });
    expect(badProbability.status).toBe(400);
    expect(badProbability.body.message).toBe('Probability must be at most 1');
    const activated = await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id, isActive: 'true' } });
    expect(activated.status).toBe(400);
    expect(activated.body.message).toBe('Active cannot be changed');
  });

  it('refuses to switch Active while the experiment collects, and switches it once collecting stops', async () => {
    const id = (await addExperiment(h)).body.data.id;
    const refused = await h.admin('POST', '/v1/admin/abtesting/changeIsActive', { body: { id } });
    expect(refused).toMatchObject({ status: 409, body: { result: false, message: 'The experiment is still collecting users' } });
    await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id: String(id), isCollecting: 'false' } });
    const switched = await h.admin('POST', '/v1/admin/abtesting/changeIsActive', { body: { id } });
    expect(switched.body.data.isActive).toBe(true);
  });

  it('lists the users of one collection with paging and filters', async () => {
    const first = (await addExperiment(h)).body.data.id;
    const second = (await addExperiment(h)).body.data.id;
    await addUsers(h, first, [
      { appInstallId: 'ai-1', platform: 'tizen', userId: 'u-1' },
      { appInstallId: 'ai-2', platform: 'webos', userId: 'u-2' },
      { appInstallId: 'ai-3', platform: 'tizen', userId: 'u-3' },
    ]);
    await addUsers(h, second, [{ appInstallId: 'ai-4' }]);
    const all = await h.admin('GET', '/v1/admin/abtesting/users', { query: { id: first, pageSize: 2, page: 2 } });
    expect(all.body.data.count).toBe(3);
    expect(all.body.data.rows.map((r: { appInstallId: string }) => r.appInstallId)).toEqual(['ai-3']);
    const tizen = await h.admin('GET', '/v1/admin/abtesting/users', { query: { id: first, platform: 'tizen', userId: 'u-3' } });
    expect(tizen.body.data.rows.map((r: { appInstallId: string }) => r.appInstallId)).toEqual(['ai-3']);
    const byInstall = await h.admin('GET', '/v1/admin/abtesting/users', { query: { id: first, appInstallId: 'ai-2' } });
    expect(byInstall.body.data.rows[0]).toMatchObject({ appInstallId: 'ai-2', modelName: 'UE55', version: '1.2.3', whitelabel: 'acme', platform: 'webos' });
    expect((await h.admin('GET', '/v1/admin/abtesting/users', { query: { id: 'first' } })).status).toBe(400);
  });

  it('lists the users of an existing collection only: no id is a 400, an id that names no experiment a 404', async () => {
    const users = (query: Record<string, string | number>) => h.admin('GET', '/v1/admin/abtesting/users', { query });
    expect(await users({})).toMatchObject({ status: 400, body: { message: 'Collection id is required' } });
    expect(await users({ id: '' })).toMatchObject({ status: 400, body: { message: 'Collection id must be a whole number' } });
    expect(await users({ id: 'abc' })).toMatchObject({ status: 400, body: { message: 'Collection id must be a whole number' } });
    expect(await users({ id: 999999 })).toMatchObject({ status: 404, body: { message: 'No experiment with id 999999' } });
    expect(await users({ id: 99999999999 })).toMatchObject({ status: 400, body: { message: 'Collection id must be at most 2147483647' } });
  });

  it('deletes a user by appInstallId, answers 404 for an unknown one and needs the field', async () => {
    const id = (await addExperiment(h)).body.data.id;
    await addUsers(h, id, [{ appInstallId: 'gone-1' }, { appInstallId: 'stays-1' }]);
    const deleted = await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'gone-1' } });
    expect(deleted.body).toEqual({ result: true, data: { count: 1 } });
    const left = await h.admin('GET', '/v1/admin/abtesting/users', { query: { id } });
    expect(left.body.data.rows.map((r: { appInstallId: string }) => r.appInstallId)).toEqual(['stays-1']);
    expect((await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'gone-1' } })).status).toBe(404);
    expect((await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user')).body.message).toBe('appInstallId is required');
  });

  it('deletes a user from one collection only when the collection id is given (the users screen), from all without it', async () => {
    const one = (await addExperiment(h)).body.data.id;
    const other = (await addExperiment(h)).body.data.id;
    await addUsers(h, one, [{ appInstallId: 'shared-1' }, { appInstallId: 'shared-2' }]);
    await addUsers(h, other, [{ appInstallId: 'shared-1' }, { appInstallId: 'shared-2' }]);
    const installsOf = async (id: number) =>
      (await h.admin('GET', '/v1/admin/abtesting/users', { query: { id } })).body.data.rows.map((r: { appInstallId: string }) => r.appInstallId);
    const scoped = await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'shared-1', id: one } });
    expect(scoped.body).toEqual({ result: true, data: { count: 1 } });
    expect(await installsOf(one)).toEqual(['shared-2']);
    expect(await installsOf(other)).toEqual(['shared-1', 'shared-2']);
    const again = await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'shared-1', id: one } });
    expect(again).toMatchObject({ status: 404, body: { message: `No experiment user with appInstallId shared-1 in collection ${one}` } });
    const badId = await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'shared-1', id: 'one' } });
    expect(badId.status).toBe(400);
    expect(badId.body.message).toBe('id is not in the expected form');
    const everywhere = await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'shared-2' } });
    expect(everywhere.body).toEqual({ result: true, data: { count: 2 } });
    expect(await installsOf(one)).toEqual([]);
    expect(await installsOf(other)).toEqual(['shared-1']);
  });

  it('deletes an experiment together with its users', async () => {
    const before = await h.count('experiment_users');
    const id = (await addExperiment(h)).body.data.id;
    await addUsers(h, id, [{ appInstallId: 'cascade-1' }]);
    expect((await h.admin('DELETE', '/v1/admin/abtesting/destroy', { query: { id } })).status).toBe(200);
    expect((await h.admin('GET', '/v1/admin/abtesting/users', { query: { id } })).status).toBe(404);
    expect(await h.count('experiment_users')).toBe(before);
  });

  it('keeps experiments from a tester', async () => {
    expect((await h.call('GET', '/v1/admin/abtesting/get', { token: h.tokens.tester })).status).toBe(403);
  });
});

forEachDialect('goals and achieved goals', (h) => {
  it('adds, edits, filters and deletes a goal', async () => {
    const created = await h.admin('POST', '/v1/admin/goalsAbtesting/add', { body: { goalName: 'purchase', description: 'bought a plan' } });
    expect(created.body.data).toMatchObject({ goalName: 'purchase', description: 'bought a plan' });
    const id = created.body.data.id;
    const edited = await h.admin('POST', '/v1/admin/goalsAbtesting/edit', { body: { id, description: 'paid' } });
    expect(edited.body.data).toMatchObject({ goalName: 'purchase', description: 'paid' });
    expect((await h.admin('GET', '/v1/admin/goalsAbtesting/get', { query: { goalName: 'purch' } })).body.data.count).toBe(1);
    expect((await h.admin('DELETE', '/v1/admin/goalsAbtesting/destroy', { query: { id } })).status).toBe(200);
    expect((await h.admin('GET', '/v1/admin/goalsAbtesting/get', { query: { goalName: 'purch' } })).body.data.count).toBe(0);
  });

  it.each([
    [{}, 'Goal name is required'],
    [{ goalName: '' }, 'Goal name must not be empty'],
    [{ goalName: 5 }, 'Goal name must be text'],
    [{ goalName: 'x', points: 3 }, 'points is not an accepted field'],
  ])('refuses the goal %j with a 400 saying "%s"', async (body, field) => {
    const reply = await h.admin('POST', '/v1/admin/goalsAbtesting/add', { body });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain(field);
  });

  it('refuses a second goal of the same name with 409', async () => {
    await h.admin('POST', '/v1/admin/goalsAbtesting/add', { body: { goalName: 'twice' } });
    expect((await h.admin('POST', '/v1/admin/goalsAbtesting/add', { body: { goalName: 'twice' } })).status).toBe(409);
  });

  it('lists achieved goals by userId, goal name and appInstallId, and deletes one', async () => {
    await h.app.engine.db
      .insertInto('achieved_goals')
      .values([
        { appInstallId: 'ag-1', userId: 'u1', goalName: 'purchase', goalDateTime: '2026-01-02T03:04:05.000Z', goalParams: '{"plan":"gold"}', abtestingId: 1, stuckingCount: 0 },
        { appInstallId: 'ag-2', userId: 'u2', goalName: 'signup', goalDateTime: null, goalParams: null, abtestingId: 1, stuckingCount: 2 },
      ])
      .execute();
    const byUser = await h.admin('GET', '/v1/admin/achievedGoals/get', { query: { userId: 'u1' } });
    expect(byUser.body.data.rows).toEqual([expect.objectContaining({ appInstallId: 'ag-1', goalName: 'purchase', goalParams: { plan: 'gold' } })]);
    expect((await h.admin('GET', '/v1/admin/achievedGoals/get', { query: { goalName: 'sign' } })).body.data.rows[0].appInstallId).toBe('ag-2');
    const byInstall = await h.admin('GET', '/v1/admin/achievedGoals/get', { query: { appInstallId: 'ag-2' } });
    expect(byInstall.body.data.count).toBe(1);
    const id = byInstall.body.data.rows[0].id;
    expect((await h.admin('DELETE', '/v1/admin/achievedGoals/destroy', { query: { id } })).status).toBe(200);
    expect((await h.admin('GET', '/v1/admin/achievedGoals/get', { query: { appInstallId: 'ag-2' } })).body.data.count).toBe(0);
    expect((await h.admin('DELETE', '/v1/admin/achievedGoals/destroy', { query: { id: 'x' } })).status).toBe(400);
  });
});
