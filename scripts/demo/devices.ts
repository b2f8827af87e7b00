// The demo's TV devices (issue 9): an A/B experiment that four devices join through the real public lookup and
// then serves, the devices' own reports (app info, achieved goals) through the public report calls, and one
// example of every lookup rule, checked here and printed for the Test request screen.
import type { FastifyInstance } from 'fastify';
import type { DemoContext } from './catalogue.ts';

export interface LookupExample {
  matchedBy: 'device' | 'ip' | 'experiment' | 'published' | 'latest';
  /** The Test request fields (the lookup's query, platform by name). */
  query: { appInstallId?: string; ipAddress?: string; whitelabel: string; platform: string };
  why: string;
}

/** One device per rule of docs/device-api.md, as the demo data leaves them. */
export const LOOKUP_EXAMPLES: LookupExample[] = [
  { matchedBy: 'device', query: { appInstallId: '0b7e5c1e-2f4d-4a8b-9c3e-5d6f7a8b9c0d', whitelabel: 'kinomax', platform: 'androidtv' }, why: 'the TV on a hotfix' },
  { matchedBy: 'ip', query: { ipAddress: '10.20.30.40', whitelabel: 'nordtv', platform: 'tizen' }, why: 'the office preview' },
  { matchedBy: 'experiment', query: { appInstallId: 'demo-ab-tv-2', whitelabel: 'nordtv', platform: 'webos' }, why: 'group new-ui of the nordtv experiment' },
  { matchedBy: 'published', query: { appInstallId: 'living-room-tv', whitelabel: 'aurora', platform: 'tizen' }, why: 'production for Samsung' },
  { matchedBy: 'latest', query: { appInstallId: 'demo-ab-tv-1', whitelabel: 'nordtv', platform: 'webos' }, why: 'the control group: newest build within max version 01.20.33' },
];

const DEVICES = ['demo-ab-tv-1', 'demo-ab-tv-2', 'demo-ab-tv-3', 'demo-ab-tv-4'];

/** The lookup as a TV sends it, from `remoteAddress`; throws on anything but 200. */
export async function lookup(app: FastifyInstance, query: Record<string, string | undefined>, remoteAddress = '198.51.100.30') {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, key === 'platform' ? JSON.stringify({ name: value }) : value);
  const reply = await app.inject({ url: `/v1/combination/get?${params}`, remoteAddress });
  const body = reply.json() as { result: boolean; data: { matchedBy: string; experiment: { id: number; group: number } | null }; message?: string };
  if (reply.statusCode !== 200) throw new Error(`lookup ${params}: ${reply.statusCode} ${body.message}`);
  return body.data;
}

async function report(app: FastifyInstance, path: string, body: unknown) {
  const reply = await app.inject({ method: 'POST', url: path, payload: body as object, remoteAddress: '198.51.100.30' });
  if (reply.statusCode !== 200) throw new Error(`${path}: ${reply.statusCode} ${reply.json().message}`);
}

/** An experiment on nordtv webOS: collects four TVs through the lookup, then stops collecting and goes active. */
function demoDeviceExperiment(app: FastifyInstance) {
  return async ({ api, ids }: DemoContext) => {
    const created = await api.call('POST', '/v1/admin/abtesting/add', {}, {
      whitelabelId: String(ids.whitelabel.nordtv),
      platformIds: JSON.stringify([ids.platform.webos]),
      modelNames: '[]',
      recordsCount: String(DEVICES.length),
      isActive: 'false',
      isCollecting: 'true',
      isRandomSaveEnable: 'false',
      probability: '1',
      versionsDeploymentSettings: JSON.stringify([
        { count: 2, groupName: 'control', customUrl: '', files: {} },
        { count: 2, groupName: 'new-ui', customUrl: 'https://cdn.example.com/nordtv/ab/new-ui/', files: { webos: ['bundle.js', 'style.css'] } },
      ]),
    });
    ids.experiment = { ...ids.experiment, devices: created.id };
    for (const [i, appInstallId] of DEVICES.entries()) {
      await lookup(app, { whitelabel: 'nordtv', platform: 'webos', appInstallId, modelName: i % 2 ? 'OLED55C1' : '43UP7500', version: '1.20.33', userId: `tv-user-${i + 1}` });
    }
    await api.call('POST', '/v1/admin/abtesting/edit', {}, { id: String(created.id), isCollecting: 'false' });
    await api.call('POST', '/v1/admin/abtesting/changeIsActive', { id: created.id });
  };
}

/** What the TVs report about themselves: app info, and goals reached in the experiment. */
function demoDeviceReports(app: FastifyInstance) {
  return async ({ ids }: DemoContext) => {
    for (const [i, appInstallId] of DEVICES.entries()) {
      await report(app, '/v1/appinfo/report', {
        appInstallId, login: `viewer${i + 1}`, email: `viewer${i + 1}@example.com`, version: '1.20.33', buildDate: '2026-10-01', buildHash: `d3v1ce${i}`,
        whitelabel: 'nordtv', platform: 'webos', userId: `tv-user-${i + 1}`,
      });
    }
    const abtestingId = ids.experiment.devices;
    await report(app, '/v1/achievedGoals/report', { appInstallId: 'demo-ab-tv-2', userId: 'tv-user-2', goalName: 'purchase', goalParams: { plan: 'year' }, abtestingId });
    await report(app, '/v1/achievedGoals/report', { appInstallId: 'demo-ab-tv-1', userId: 'tv-user-1', goalName: 'trial', goalParams: { days: 7 }, abtestingId });
    await report(app, '/v1/achievedGoals/report', { appInstallId: 'demo-ab-tv-1', userId: 'tv-user-1', goalName: 'trial', goalParams: { days: 14 }, abtestingId });
  };
}

/** Asks the lookup for every example and fails the demo if one no longer shows its rule. */
function checkExamples(app: FastifyInstance) {
  return async () => {
    for (const example of LOOKUP_EXAMPLES) {
      const answer = await lookup(app, example.query);
      if (answer.matchedBy !== example.matchedBy) throw new Error(`demo: ${JSON.stringify(example.query)} gave ${answer.matchedBy}, not ${example.matchedBy}`);
    }
  };
}

/** The issue-9 areas, after the testers areas (they use the goals and the catalogue). */
export function devicesAreas(app: FastifyInstance): [string, (ctx: DemoContext) => Promise<void>][] {
  return [
    ['an A/B experiment four TVs joined through the lookup', demoDeviceExperiment(app)],
    ['app info and achieved goals reported by the TVs', demoDeviceReports(app)],
    ['one device for every lookup rule (see Test request)', checkExamples(app)],
  ];
}

/** Lines for the console: what to type in Test request to see each rule. */
export function describeExamples(): string[] {
  return LOOKUP_EXAMPLES.map(({ matchedBy, query, why }) => {
    const fields = Object.entries(query).map(([k, v]) => `${k} ${v}`).join(', ');
    return `  ${matchedBy.padEnd(10)} ${fields} (${why})`;
  });
}
