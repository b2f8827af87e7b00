// Rule 3 of the device lookup: devices join an A/B collection while it collects (groups fill to their counts,
// random save by probability, model names), get their group's files once it is active, and never overfill it,
// even racing for the last place from two servers on one database. Every case on SQLite and PostgreSQL.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { beforeAll, expect, it } from 'vitest';
import { pickedByChance } from '../../server/actions/device/collect.ts';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect } from './harness.ts';

const LOOKUP = '/v1/combination/get';

forEachDialect('device lookup: A/B collections', (h) => {
  let whitelabelId = 0;
  let tizen = 0;

  const device = (appInstallId: string, extra: Record<string, string> = {}) =>
    h.call('GET', LOOKUP, { query: { whitelabel: 'abwl', platform: JSON.stringify({ name: 'tizen' }), appInstallId, ...extra }, remoteAddress: '198.51.100.20' });

  async function experiment(fields: Record<string, string>, groups: { count: number; groupName?: string; customUrl?: string; files?: Record<string, string[]> }[]) {
    const reply = await h.admin('POST', '/v1/admin/abtesting/add', {
      form: {
        whitelabelId: String(whitelabelId),
        platformIds: JSON.stringify([tizen]),
        recordsCount: String(groups.reduce((n, g) => n + g.count, 0)),
        isCollecting: 'true',
        isRandomSaveEnable: 'false',
        versionsDeploymentSettings: JSON.stringify(groups.map((g) => ({ customUrl: '', files: {}, ...g }))),
        ...fields,
      },
    });
    if (reply.status !== 200) throw new Error(reply.raw);
    return reply.body.data.id as number;
  }

  const users = async (id: number) =>
    (await h.admin('GET', '/v1/admin/abtesting/users', { query: { id, pageSize: 1000, sortBy: 'id' } })).body.data.rows as Record<string, unknown>[];
  const destroy = (id: number) => h.admin('DELETE', '/v1/admin/abtesting/destroy', { query: { id } });
  const activate = async (id: number) => {
    await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id: String(id), isCollecting: 'false' } });
    await h.admin('POST', '/v1/admin/abtesting/changeIsActive', { body: { id } });
  };

  beforeAll(async () => {
    whitelabelId = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('abwl') })).body.data.id;
    tizen = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'tizen', maxVersion: '01.20.34' } })).body.data.id;
    await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'webos', maxVersion: '01.20.34' } });
    dropBuild(h.app.engine.dataDir, ['abwl', 'tizen', '1.20.30', '1080p']);
    await h.admin('GET', '/v1/admin/build/reload');
  });

  it('records new devices while collecting, filling the groups to their counts and then no more', async () => {
    const id = await experiment({}, [{ count: 2, groupName: 'A' }, { count: 3, groupName: 'B' }]);
    const answers = [];
    for (let i = 1; i <= 7; i++) answers.push((await device(`fill-${i}`, { modelName: 'UE55', version: '1.20.30', userId: `u${i}` })).body.data);
    const rows = await users(id);
    expect(rows).toHaveLength(5);
    expect(rows.filter((r) => r.groupNumber === 1)).toHaveLength(2);
    expect(rows.filter((r) => r.groupNumber === 2)).toHaveLength(3);
    expect(rows[0]).toMatchObject({ appInstallId: 'fill-1', modelName: 'UE55', version: '1.20.30', whitelabel: 'abwl', platform: 'tizen', userId: 'u1' });
    // While collecting a member gets the regular build and learns its collection; the full collection takes no one.
    expect(answers[0].matchedBy).toBe('latest');
    expect(answers[0].experiment).toMatchObject({ id, isActive: false });
    expect(answers[6].experiment).toBeNull();
    // A member asking again stays in its group; nothing is added.
    const again = await device('fill-1');
    expect(again.body.data.experiment.group).toBe(rows[0].groupNumber);
    expect(await users(id)).toHaveLength(5);
    await destroy(id);
  });

  it('spreads devices over the groups by how full each is, not first group first', async () => {
    const id = await experiment({}, [{ count: 2 }, { count: 2 }]);
    for (let i = 1; i <= 4; i++) await device(`spread-${i}`);
    expect((await users(id)).map((r) => r.groupNumber)).toEqual([1, 2, 1, 2]);
    await destroy(id);
  });

  it('never records a device when random save is on with probability 0, and ignores the probability when it is off', async () => {
    const never = await experiment({ isRandomSaveEnable: 'true', probability: '0' }, [{ count: 10 }]);
    for (let i = 1; i <= 10; i++) await device(`never-${i}`);
    expect(await users(never)).toHaveLength(0);
    await destroy(never);
    const always = await experiment({ isRandomSaveEnable: 'false', probability: '0' }, [{ count: 3 }]);
    for (let i = 1; i <= 3; i++) await device(`always-${i}`);
    expect(await users(always)).toHaveLength(3);
    await destroy(always);
  });

  it('records a device picked by a probability between 0 and 1, and gives the same answer at every start', async () => {
    const id = await experiment({ isRandomSaveEnable: 'true', probability: '0.5' }, [{ count: 100 }]);
    const names = Array.from({ length: 40 }, (_, i) => `half-${i}`);
    for (const name of names) await device(name);
    for (const name of names) await device(name);
    const recorded = (await users(id)).map((r) => r.appInstallId);
    expect(recorded.sort()).toEqual(names.filter((n) => pickedByChance(id, n, 0.5)).sort());
    expect(recorded.length).toBeGreaterThan(5);
    expect(recorded.length).toBeLessThan(35);
    await destroy(id);
  });

  it('takes only devices of a listed model when the experiment names models, and only its platforms', async () => {
    const id = await experiment({ modelNames: JSON.stringify(['OLED55']) }, [{ count: 10 }]);
    await device('model-none');
    await device('model-other', { modelName: 'UE55' });
    await device('model-listed', { modelName: 'OLED55' });
    await h.call('GET', LOOKUP, { query: { whitelabel: 'abwl', platform: JSON.stringify({ name: 'webos' }), appInstallId: 'webos-tv', modelName: 'OLED55' } });
    expect((await users(id)).map((r) => r.appInstallId)).toEqual(['model-listed']);
    await destroy(id);
  });

  it("serves an active experiment's group: its files for this platform on its customUrl; a group without either gets the regular build", async () => {
    const id = await experiment({}, [
      { count: 1, groupName: 'control' },
      { count: 1, groupName: 'new-player', customUrl: 'https://cdn.example.com/ab/new', files: { tizen: ['bundleB.js'] } },
    ]);
    await device('ab-1');
    await device('ab-2');
    await activate(id);
    const [control, treated] = [(await device('ab-1')).body.data, (await device('ab-2')).body.data];
    expect(control.matchedBy).toBe('latest');
    expect(control.experiment).toEqual({ id, group: 1, groupName: 'control', isActive: true });
    expect(treated.matchedBy).toBe('experiment');
    expect(treated.build.urls).toEqual(['https://cdn.example.com/ab/new/bundleB.js']);
    // Not collecting any more: a new device is not recorded.
    expect((await device('ab-3')).body.data.experiment).toBeNull();
    expect(await users(id)).toHaveLength(2);
    await destroy(id);
  });

  it('forgets a device removed from the collection in the panel at the next lookup', async () => {
    const id = await experiment({}, [{ count: 5 }]);
    await device('removed-1');
    expect(await users(id)).toHaveLength(1);
    await h.admin('POST', '/v1/admin/abtesting/edit', { form: { id: String(id), isCollecting: 'false' } });
    expect((await device('removed-1')).body.data.experiment).toMatchObject({ id });
    await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'removed-1' } });
    expect((await device('removed-1')).body.data.experiment).toBeNull();
    await destroy(id);
  });

  it('gives a place freed in the panel to the next new device of a full collection', async () => {
    const id = await experiment({}, [{ count: 2, groupName: 'A' }]);
    await device('freed-1');
    await device('freed-2');
    expect((await device('freed-3')).body.data.experiment).toBeNull();
    await h.admin('DELETE', '/v1/admin/abtesting/info-for-testing/delete-user', { query: { appInstallId: 'freed-1' } });
    expect((await device('freed-4')).body.data.experiment).toMatchObject({ id, group: 1 });
    expect((await users(id)).map((r) => r.appInstallId)).toEqual(['freed-2', 'freed-4']);
    await destroy(id);
  });

  it('records every device of a crowd starting at once, each in one group, the groups filled evenly', async () => {
    const id = await experiment({}, [{ count: 50 }, { count: 50 }]);
    const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => device(`crowd-${i % 40}`)));
    expect(replies.every((r) => r.status === 200 && r.body.data.experiment?.id === id)).toBe(true);
    const rows = await users(id);
    expect(rows).toHaveLength(40);
    expect(rows.filter((r) => r.groupNumber === 1)).toHaveLength(20);
    // A device that started twice at once has one row and got the same group both times.
    const groupOf = new Map(rows.map((r) => [r.appInstallId, r.groupNumber]));
    for (const [i, r] of replies.entries()) expect(r.body.data.experiment.group).toBe(groupOf.get(`crowd-${i % 40}`));
    await destroy(id);
  });

  it('never lets devices racing for the last places overfill the collection, within one server', async () => {
    const id = await experiment({}, [{ count: 2 }, { count: 1 }]);
    await device('race-first');
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => device(`race-${i}`)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const rows = await users(id);
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.groupNumber === 1)).toHaveLength(2);
    expect(replies.filter((r) => r.body.data.experiment).length).toBe(2);
    await destroy(id);
  });

  it('never lets devices racing from two server processes on one database overfill the collection', async () => {
    const id = await experiment({}, [{ count: 4 }]);
    const names = Array.from({ length: 40 }, (_, i) => `two-${i}`);
    const child = spawn('npx', ['tsx', 'tests/server/lookup-race-child.ts'], {
      env: {
        ...process.env,
        DATA_DIR: h.app.engine.dataDir,
        DATABASE_URL: h.databaseUrl ?? '',
        RACE_WHITELABEL: 'abwl',
        RACE_DEVICES: names.filter((_, i) => i % 2).join(','),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout! });
    const next = async () => (await lines[Symbol.asyncIterator]().next()).value as string;
    try {
      expect(await next()).toBe('ready');
      child.stdin!.write('go\n');
      const ours = Promise.all(names.filter((_, i) => i % 2 === 0).map((name) => device(name)));
      const [theirs, replies] = await Promise.all([next(), ours]);
      expect(theirs).toBe('answered 20');
      expect(replies.every((r) => r.status === 200)).toBe(true);
      expect(await users(id)).toHaveLength(4);
    } finally {
      child.kill();
    }
    await destroy(id);
  }, 60_000);
  // Its lookups all come from one address, many more at once than a TV sends: the whole minute may come at once here.
}, { config: { publicRateLimit: { perMinute: 600 } } });
