// The demo data of issue 5, one function per area like scripts/demo/catalogue.ts: tester lists (IPs, e-mails,
// phones), app info, goals and an experiment with users and achieved goals. What the panel writes goes through
// the real routes; what devices report (app info, experiment users, achieved goals) has no panel call, so those
// rows are inserted into their tables as the devices' backend would.
import type { Kysely } from 'kysely';
import type { DemoContext } from './catalogue.ts';

const first = (ids: Record<string, number> | undefined, what: string) => {
  const id = Object.values(ids ?? {})[0];
  if (id === undefined) throw new Error(`demo: the ${what} area must run before the testers areas`);
  return id;
};

async function demoTesterLists({ api, ids }: DemoContext) {
  await api.call('POST', '/v1/admin/testersIP/addArray', {
    ips: ['10.20.0.0/24', '10.20.1.7/32', '172.16.5.0/28', '192.168.10.1/32'].map((ip, i) => ({ ip, vendor: i % 2 ? 'lg' : 'samsung' })),
  });
  await api.call('GET', '/v1/admin/testersIP/add', { ip: '203.0.113.9/32', vendor: 'custom', description: 'office Wi-Fi' });
  // Two testers still testing, one who left (inactive), as the Tester emails screen highlights them.
  for (const [email, active] of [['qa.lead@example.com', true], ['tv-lab@example.com', true], ['former.tester@example.com', false]] as const) {
    await api.call('GET', '/v1/admin/testersEmails/add', { email, active });
  }
  for (const [i, whitelabelId] of Object.values(ids.whitelabel ?? {}).slice(0, 2).entries()) {
    await api.call('POST', '/v1/admin/testersPhones/add', { whitelabelId, phones: [`+7900000000${i}`, `+7900000010${i}`], isActive: i === 0 });
  }
}

async function demoGoals({ api }: DemoContext) {
  for (const [goalName, description] of [['purchase', 'bought a subscription'], ['trial', 'started a free trial'], ['retention-7d', 'came back after a week']]) {
    await api.call('POST', '/v1/admin/goalsAbtesting/add', { goalName, description });
  }
}

async function demoExperiment({ api, ids }: DemoContext) {
  const platformIds = Object.values(ids.platform ?? {}).slice(0, 2);
  const created = await api.call('POST', '/v1/admin/abtesting/add', {}, {
    whitelabelId: String(first(ids.whitelabel, 'whitelabels')),
    platformIds: JSON.stringify(platformIds),
    modelNames: JSON.stringify(['UE55TU7100', 'OLED55C1']),
    recordsCount: '100',
    isActive: 'false',
    isCollecting: 'true',
    isRandomSaveEnable: 'true',
    probability: '0.5',
    versionsDeploymentSettings: JSON.stringify([
      { count: 50, groupName: 'control', customUrl: '', files: {} },
      { count: 50, groupName: 'new-player', customUrl: 'https://cdn.example.com/ab/new-player/', files: { tizen: ['bundleB.js', 'styleB.css'] } },
    ]),
  });
  ids.experiment = { demo: created.id };
}

/** Rows that installed applications report, written straight to their tables. */
function deviceReports(db: Kysely<any>) {
  return async ({ ids }: DemoContext) => {
    await db
      .insertInto('app_infos')
      .values(
        ['anna', 'boris', 'carmen', 'dmitri', 'eve'].map((login, i) => ({
          email: `${login}@example.com`,
          login,
          appInstallId: `demo-install-${i + 1}`,
          buildDate: `2026-0${i + 1}-15`,
          buildHash: `a1b2c3${i}`,
          version: `1.20.3${i % 5}`,
          whitelabel: 'aurora',
          platform: i % 2 ? 'webos' : 'tizen',
          userId: `user-${i + 1}`,
          active: i === 3 ? 'no' : 'yes',
        })),
      )
      .execute();
    const abtestingId = first(ids.experiment, 'experiment');
    const installs = Array.from({ length: 12 }, (_, i) => `ab-install-${i + 1}`);
    await db
      .insertInto('experiment_users')
      .values(
        installs.map((appInstallId, i) => ({
          abtestingId,
          appInstallId,
          modelName: i % 2 ? 'OLED55C1' : 'UE55TU7100',
          version: '1.20.34',
          whitelabel: 'aurora',
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
          abtestingId,
          stuckingCount: i % 2,
        })),
      )
      .execute();
  };
}

/** The areas of issue 5, after the catalogue's (they use its whitelabels and platforms). */
export function testersAreas(db: Kysely<any>): [string, (ctx: DemoContext) => Promise<void>][] {
  return [
    ['tester IPs, e-mails and phones', demoTesterLists],
    ['A/B goals', demoGoals],
    ['an A/B experiment', demoExperiment],
    ['app info, experiment users and achieved goals', deviceReports(db)],
  ];
}
