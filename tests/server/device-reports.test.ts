// The device reports (docs/device-api.md): app info upserted by appInstallId and achieved goals, public and
// validated; the rows appear on the App Info and Achieved goals screens; nothing else can be written. Then the
// per-address rate limit of every public call, and X-Forwarded-For from a trusted proxy. Both dialects.
import { beforeAll, describe, expect, it } from 'vitest';
import { reportAppInfo } from '../../server/actions/device/reports.ts';
import { loadConfig } from '../../server/config.ts';
import { AddressBuckets } from '../../server/plugins/public-rate-limit.ts';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect } from './harness.ts';

const APP_INFO = '/v1/appinfo/report';
const GOAL = '/v1/achievedGoals/report';
/** The limit of the flood's addresses: each sends all of it at once. */
const PER_MINUTE = 30;

forEachDialect('device reports', (h) => {
  const auditRows = () => h.count('user_logs');

  it('adds the app info of a new installation and updates it in place on the next report', async () => {
    const before = await auditRows();
    const first = await h.call('POST', APP_INFO, { body: { appInstallId: 'tv-1', email: 'anna@example.com', login: 'anna', version: '1.20.33', whitelabel: 'acme', platform: 'tizen', userId: 'u-1' } });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ created: true });
    const second = await h.call('POST', APP_INFO, { body: { appInstallId: 'tv-1', version: '1.20.34', buildHash: 'abc123', active: 'no' } });
    expect(second.body.data).toEqual({ created: false });
    const rows = (await h.admin('GET', '/v1/admin/appinfo/get', { query: { appInstallId: 'tv-1' } })).body.data.rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ appInstallId: 'tv-1', email: 'anna@example.com', login: 'anna', version: '1.20.34', buildHash: 'abc123', active: 'no', userId: 'u-1' });
    // Device writes are not staff actions: the users logs stay as they were.
    expect(await auditRows()).toBe(before);
  });

  it('keeps one row per installation when the same new device reports many times at once', async () => {
    // The handler itself, many times in one tick: HTTP parsing would spread the calls out and hide the race.
    const engine = h.app.engine;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => reportAppInfo({ engine, db: engine.db, input: { appInstallId: 'tv-twice', version: `1.0.${i}` }, actor: { id: null, email: null, role: null } })),
    );
    expect((await h.admin('GET', '/v1/admin/appinfo/get', { query: { appInstallId: 'tv-twice' } })).body.data.count).toBe(1);
  });

  it('refuses a report with a field of no app info, a staff-only field, a missing appInstallId or a bad value, writing nothing', async () => {
    const count = await h.count('app_infos');
    const cases: [unknown, number, RegExp][] = [
      [{ appInstallId: 'tv-x', id: 5 }, 400, /^id is not an accepted field/],
      [{ appInstallId: 'tv-x', role: 'admin' }, 400, /^role is not an accepted field/],
      [{ appInstallId: 'tv-x', active: 'maybe' }, 400, /^active must be one of: yes, no/],
      [{ version: '1.0.0' }, 400, /^appInstallId is required/],
      [{ appInstallId: 'x'.repeat(201) }, 400, /^appInstallId must be at most 200 characters long/],
      ['{"appInstallId":"tv-x","__proto__":{"admin":true}}', 400, /./],
      ['not json', 400, /./],
      [{ appInstallId: 'tv-x', login: 'y'.repeat(20_000) }, 413, /./],
    ];
    for (const [body, status, message] of cases) {
      const reply = await h.call('POST', APP_INFO, { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      expect(reply.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      expect(reply.body.message).toMatch(message);
    }
    expect(await h.count('app_infos')).toBe(count);
  });

  describe('achieved goals', () => {
    let experimentId = 0;
    beforeAll(async () => {
      const whitelabelId = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('goalwl') })).body.data.id;
      const platformId = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'tizen', maxVersion: '01.20.34' } })).body.data.id;
      await h.admin('POST', '/v1/admin/goalsAbtesting/add', { body: { goalName: 'purchase' } });
      experimentId = (
        await h.admin('POST', '/v1/admin/abtesting/add', {
          form: { whitelabelId: String(whitelabelId), platformIds: JSON.stringify([platformId]), recordsCount: '2', versionsDeploymentSettings: '[{"count":2}]' },
        })
      ).body.data.id;
    });

    it('records a goal of a known name, shown on the Achieved goals screen, and counts a repeat in stuckingCount', async () => {
      const body = { appInstallId: 'tv-9', userId: 'u-9', goalName: 'purchase', goalParams: { plan: 'year' }, abtestingId: experimentId, goalDateTime: '2026-11-01T12:00:00.000Z' };
      expect((await h.call('POST', GOAL, { body })).body.data).toEqual({ stuckingCount: 0 });
      expect((await h.call('POST', GOAL, { body: { ...body, goalParams: { plan: 'month' } } })).body.data).toEqual({ stuckingCount: 1 });
      const rows = (await h.admin('GET', '/v1/admin/achievedGoals/get', { query: { appInstallId: 'tv-9' } })).body.data.rows;
      expect(rows).toEqual([expect.objectContaining({ appInstallId: 'tv-9', userId: 'u-9', goalName: 'purchase', goalParams: { plan: 'month' }, abtestingId: experimentId, stuckingCount: 1 })]);
      // Outside the experiment the same goal is another row; with no date the server's time is taken.
      await h.call('POST', GOAL, { body: { appInstallId: 'tv-9', goalName: 'purchase' } });
      const all = (await h.admin('GET', '/v1/admin/achievedGoals/get', { query: { appInstallId: 'tv-9' } })).body.data.rows;
      expect(all).toHaveLength(2);
      expect(Date.now() - Date.parse(all.find((r: { abtestingId: unknown }) => r.abtestingId === null).goalDateTime)).toBeLessThan(60_000);
    });

    it('refuses a goal name that does not exist and an experiment that does not, writing nothing', async () => {
      const count = await h.count('achieved_goals');
      const unknownGoal = await h.call('POST', GOAL, { body: { appInstallId: 'tv-9', goalName: 'world-domination' } });
      expect(unknownGoal.status).toBe(400);
      expect(unknownGoal.body.message).toBe('goalName: no goal named "world-domination"');
      const unknownExperiment = await h.call('POST', GOAL, { body: { appInstallId: 'tv-9', goalName: 'purchase', abtestingId: 999999 } });
      expect(unknownExperiment.body.message).toBe('abtestingId: no experiment with id 999999');
      const staffField = await h.call('POST', GOAL, { body: { appInstallId: 'tv-9', goalName: 'purchase', stuckingCount: 100 } });
      expect(staffField.body.message).toBe('stuckingCount is not an accepted field');
      const badDate = await h.call('POST', GOAL, { body: { appInstallId: 'tv-9', goalName: 'purchase', goalDateTime: 'yesterday' } });
      expect(badDate.body.message).toBe('goalDateTime must be a date and time');
      expect(await h.count('achieved_goals')).toBe(count);
    });
  });
});

forEachDialect(
  'public call limits',
  (h) => {
    it('answers 429 with Retry-After past the per-address limit, across every public call, and counts each address apart', async () => {
      const address = '198.51.100.50';
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await h.call('GET', '/v1/combination/get', { remoteAddress: address })).status);
      statuses.push((await h.call('POST', APP_INFO, { body: { appInstallId: 'limited' }, remoteAddress: address })).status);
      statuses.push((await h.call('POST', APP_INFO, { body: { appInstallId: 'limited' }, remoteAddress: address })).status);
      expect(statuses).toEqual([404, 404, 404, 200, 200]);
      const refused = await h.app.inject({ method: 'GET', url: '/v1/combination/get', remoteAddress: address });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.json()).toEqual({ result: false, code: 'ERR_RATE_LIMIT', message: expect.stringMatching(/^Too many requests from 198\.51\.100\.50; retry in \d+ s$/) });
      expect((await h.call('POST', GOAL, { body: { appInstallId: 'limited', goalName: 'x' }, remoteAddress: address })).status).toBe(429);
      expect((await h.call('GET', '/v1/combination/get', { remoteAddress: '198.51.100.51' })).status).toBe(404);
      // Staff calls are not counted against the address.
      expect((await h.admin('GET', '/v1/admin/platform/get', { remoteAddress: address })).status).toBe(200);
    });

    it('counts an IPv6 /64 as one address, and an IPv4-mapped address as its IPv4 one', async () => {
      // 700 calls from one /64, each from another address in it (the low 64 bits drawn at random).
      const hextet = () => Math.floor(Math.random() * 0x10000).toString(16);
      const statuses: number[] = [];
      for (let i = 0; i < 700; i++) {
        const address = `2001:db8:77:1:${hextet()}:${hextet()}:${hextet()}:${i.toString(16)}`;
        statuses.push((await h.app.inject({ method: 'GET', url: '/v1/combination/get', remoteAddress: address })).statusCode);
      }
      expect(statuses.filter((s) => s !== 429)).toHaveLength(5);
      expect(statuses.slice(5)).toEqual(Array(695).fill(429));
      const refused = await h.app.inject({ method: 'GET', url: '/v1/combination/get', remoteAddress: '2001:db8:77:1::9' });
      expect(refused.json().message).toMatch(/^Too many requests from 2001:db8:77:1::\/64; retry in \d+ s$/);
      expect(refused.headers['cache-control']).toBe('private, no-store');
      // The next /64 has its own count.
      expect((await h.app.inject({ method: 'GET', url: '/v1/combination/get', remoteAddress: '2001:db8:77:2::1' })).statusCode).toBe(404);
      // A dual-stack socket's IPv4 client and the same address as IPv4 share one.
      const v4 = ['198.51.100.70', '::ffff:198.51.100.70', '198.51.100.70', '::ffff:198.51.100.70', '198.51.100.70', '::ffff:198.51.100.70'];
      const v4Statuses = [];
      for (const address of v4) v4Statuses.push((await h.app.inject({ method: 'GET', url: '/v1/combination/get', remoteAddress: address })).statusCode);
      expect(v4Statuses).toEqual([404, 404, 404, 404, 404, 429]);
    });

    it('takes the address from X-Forwarded-For only through a trusted proxy', async () => {
      const viaProxy = (forwarded: string) =>
        h.call('GET', '/v1/combination/get', { query: { appInstallId: 'nobody' }, headers: { 'x-forwarded-for': forwarded }, remoteAddress: '127.0.0.1' });
      const reply = await viaProxy('203.0.113.99');
      expect(reply.body.message).toMatch(/IP 203\.0\.113\.99/);
      const direct = await h.call('GET', '/v1/combination/get', { query: { appInstallId: 'nobody' }, headers: { 'x-forwarded-for': '203.0.113.98' }, remoteAddress: '198.51.100.60' });
      expect(direct.body.message).toMatch(/IP 198\.51\.100\.60/);
    });
  },
  { config: { publicRateLimit: { perMinute: 5 }, trustedProxies: ['127.0.0.1'] } },
);

describe('address buckets', () => {
  it('refills at the per-minute rate and says how long to wait', () => {
    const buckets = new AddressBuckets(60);
    for (let i = 0; i < 60; i++) expect(buckets.take('a', 0)).toBe(0);
    expect(buckets.take('a', 0)).toBe(1);
    expect(buckets.take('a', 999)).toBe(1);
    expect(buckets.take('a', 1001)).toBe(0);
    expect(buckets.take('a', 1001)).toBe(1);
  });

  it('lets a burst smaller than the minute through at once, then paces the rest at the per-minute rate', () => {
    const buckets = new AddressBuckets(600, 100, 60);
    for (let i = 0; i < 60; i++) expect(buckets.take('a', 0)).toBe(0);
    expect(buckets.take('a', 0)).toBe(1);
    // 600 a minute: one call every 100 ms once the burst is spent.
    expect(buckets.take('a', 99)).toBe(1);
    expect(buckets.take('a', 101)).toBe(0);
    expect(buckets.take('a', 150)).toBe(1);
  });

  it('takes a tenth of PUBLIC_RATE_LIMIT as the burst unless PUBLIC_RATE_BURST says otherwise', () => {
    expect(loadConfig({}).publicRateLimit).toEqual({ perMinute: 600, burst: 60 });
    expect(loadConfig({ PUBLIC_RATE_LIMIT: '6000' }).publicRateLimit).toEqual({ perMinute: 6000, burst: 600 });
    expect(loadConfig({ PUBLIC_RATE_LIMIT: '5' }).publicRateLimit).toEqual({ perMinute: 5, burst: 1 });
    expect(loadConfig({ PUBLIC_RATE_BURST: '200' }).publicRateLimit).toEqual({ perMinute: 600, burst: 200 });
    expect(() => loadConfig({ PUBLIC_RATE_BURST: 'lots' })).toThrow('PUBLIC_RATE_BURST is not a positive whole number: lots');
  });

  it('keeps at most its number of addresses, forgetting full buckets first', () => {
    const buckets = new AddressBuckets(10, 3);
    buckets.take('a', 0);
    buckets.take('b', 0);
    buckets.take('c', 60_000);
    buckets.take('d', 60_000);
    expect(buckets.addresses).toBe(2);
    for (let i = 0; i < 9; i++) buckets.take('c', 60_000);
    buckets.take('e', 60_000);
    expect(buckets.take('c', 60_000)).toBeGreaterThan(0);
  });
});

forEachDialect(
  'a device flood',
  (h) => {
    it('leaves the staff their calls: staff lists during a flood from 30 addresses all answer, no device call answers 503', async () => {
      const whitelabelId = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('floodwl') })).body.data.id;
      const platformId = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'tizen', maxVersion: '01.20.34' } })).body.data.id;
      await h.admin('POST', '/v1/admin/goalsAbtesting/add', { body: { goalName: 'started' } });
      const settings = JSON.stringify([{ count: 10_000, customUrl: 'https://cdn.example.com/a/', files: {} }]);
      const created = await h.admin('POST', '/v1/admin/abtesting/add', {
        form: { whitelabelId: String(whitelabelId), platformIds: JSON.stringify([platformId]), recordsCount: '10000', isCollecting: 'true', isRandomSaveEnable: 'false', versionsDeploymentSettings: settings },
      });
      expect(created.status).toBe(200);
      dropBuild(h.app.engine.dataDir, ['floodwl', 'tizen', '1.20.34', '1080p']);
      await h.admin('GET', '/v1/admin/build/reload');

      // 30 addresses, each sending its whole limit at once: new devices joining the collection, app infos, goals
      // (every seventh of an unknown goal, refused alone though it shares a batch with others).
      const device = async (a: number, n: number) => {
        const remoteAddress = `198.51.100.${100 + a}`;
        const id = `flood-${a}-${n}`;
        const kind = n % 3;
        const reply =
          kind === 0
            ? await h.app.inject({ method: 'GET', url: '/v1/combination/get', query: { whitelabel: 'floodwl', platform: JSON.stringify({ name: 'tizen' }), appInstallId: id }, remoteAddress })
            : kind === 1
              ? await h.app.inject({ method: 'POST', url: APP_INFO, payload: { appInstallId: id, version: '1.0.0' }, remoteAddress })
              : await h.app.inject({ method: 'POST', url: GOAL, payload: { appInstallId: id, goalName: n % 7 === 2 ? 'nonexistent' : 'started' }, remoteAddress });
        return { kind, n, status: reply.statusCode, body: reply.json(), retryAfter: reply.headers['retry-after'] };
      };
      const flood = Promise.all(Array.from({ length: 30 }, (_, a) => Array.from({ length: PER_MINUTE }, (_, n) => device(a, n))).flat());
      const staff = Promise.all(Array.from({ length: 10 }, () => h.admin('GET', '/v1/admin/platform/get')));
      const [devices, lists] = await Promise.all([flood, staff]);

      expect(lists.map((l) => l.status)).toEqual(Array(10).fill(200));
      const others = devices.filter((d) => ![200, 400, 429].includes(d.status));
      expect(others.map((d) => `${d.status} ${d.body.message}`)).toEqual([]);
      // Over the budget: 429 ERR_RATE_LIMIT with Retry-After, like a device over its own limit.
      const refused = devices.filter((d) => d.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      for (const d of refused) {
        expect(d.body).toEqual({ result: false, code: 'ERR_RATE_LIMIT', message: 'The server is busy with device calls; retry in 1 s' });
        expect(d.retryAfter).toBe('1');
      }
      for (const d of devices.filter((x) => x.status === 400)) expect(d.body.message).toBe('goalName: no goal named "nonexistent"');
      // What was answered 200 was written, and nothing else: batched writes lose none and a refusal undoes only itself.
      const ok = (kind: number) => devices.filter((d) => d.kind === kind && d.status === 200).length;
      expect(devices.filter((d) => d.kind === 0 && d.status === 200).every((d) => d.body.data.experiment?.id === created.body.data.id)).toBe(true);
      expect(await h.count('experiment_users')).toBe(ok(0));
      expect(await h.count('app_infos')).toBe(ok(1));
      expect(await h.count('achieved_goals')).toBe(ok(2));
      expect(ok(0) + ok(1) + ok(2)).toBeGreaterThan(0);
    });
  },
  // Room for each address's burst; a queue of device writes shorter than the flood's 900, so it goes past it.
  { config: { publicRateLimit: { perMinute: PER_MINUTE }, deviceWrites: { queued: 500 } } },
);

forEachDialect(
  'a device burst',
  (h) => {
    it('answers an address its burst at once and 429 with Retry-After past it, whatever its per-minute rate', async () => {
      const lookup = () => h.app.inject({ method: 'GET', url: '/v1/combination/get', remoteAddress: '198.51.100.77' });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await lookup()).statusCode);
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
      const refused = await lookup();
      expect(refused.headers['retry-after']).toBe('1');
      expect((await h.app.inject({ method: 'GET', url: '/v1/combination/get', remoteAddress: '198.51.100.78' })).statusCode).toBe(404);
    });
  },
  // 120 a minute would allow a burst of 12 by default (perMinute/10); one token comes back every 0.5 s, more than
  // five calls take even on a loaded machine (at 600, a slow run got a token back between the third and fourth).
  { config: { publicRateLimit: { perMinute: 120, burst: 3 } } },
);
