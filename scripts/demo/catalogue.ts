// The demo catalogue, one function per area. Each takes the shared context, calls the real routes and notes
// the ids it created for the areas after it (whitelabels and platforms first, combinations last).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodePng, type Rgb } from '../lib/png.ts';
import type { DemoApi } from './client.ts';

export interface DemoContext {
  api: DemoApi;
  /** Ids by entity and name, e.g. ids.whitelabel.aurora. */
  ids: Record<string, Record<string, number>>;
}

const WHITELABELS: { name: string; colour: Rgb; accent: Rgb; maxVersion: string }[] = [
  { name: 'aurora', colour: [18, 52, 110], accent: [120, 200, 255], maxVersion: '01.20.34' },
  { name: 'nordtv', colour: [16, 88, 64], accent: [170, 240, 200], maxVersion: '01.20.33' },
  { name: 'kinomax', colour: [120, 20, 30], accent: [255, 200, 90], maxVersion: '01.19.08' },
];
const PLATFORMS = [
  { name: 'tizen', maxVersion: '01.20.34' },
  { name: 'webos', maxVersion: '01.20.34' },
  { name: 'androidtv', maxVersion: '01.19.08' },
];
const VERSIONS = ['1.20.33', '1.20.34'];

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * t)) as Rgb;

/** A logo: a diagonal gradient with a centred accent badge, at the exact size the panel requires. */
export function demoLogo(width: number, height: number, colour: Rgb, accent: Rgb): Buffer {
  const badge = { x0: width * 0.3, x1: width * 0.7, y0: height * 0.4, y1: height * 0.6 };
  return encodePng(width, height, (x, y) => {
    if (x > badge.x0 && x < badge.x1 && y > badge.y0 && y < badge.y1) return accent;
    return mix(colour, [0, 0, 0], (x / width + y / height) / 4);
  });
}

const css = (colour: Rgb, accent: Rgb) =>
  [
    `body { background: rgb(${colour.join(', ')}); color: #f5f7fa; font-family: sans-serif; }`,
    `.menu-item:focus, .menu-item.active { outline: 4px solid rgb(${accent.join(', ')}); }`,
    `@media (min-width: 1920px) { body { font-size: 28px; } }`,
    '',
  ].join('\n');

export async function demoPlatforms({ api, ids }: DemoContext) {
  ids.platform = {};
  for (const p of PLATFORMS) ids.platform[p.name] = (await api.call('GET', '/v1/admin/platform/add', p)).id;
}

export async function demoWhitelabels({ api, ids }: DemoContext) {
  ids.whitelabel = {};
  for (const wl of WHITELABELS) {
    const created = await api.call('POST', '/v1/admin/whitelabel/add', {}, {
      name: wl.name,
      feUrl: `https://${wl.name}.tv.example.com/`,
      deployConfiguration: JSON.stringify({ region: 'eu-central', replicas: 2, cdn: `https://cdn.example.com/${wl.name}` }),
      maxVersion: wl.maxVersion,
      imageHD: { filename: `${wl.name}-hd.png`, type: 'image/png', content: demoLogo(1280, 720, wl.colour, wl.accent) },
      imageFHD: { filename: `${wl.name}-fhd.png`, type: 'image/png', content: demoLogo(1920, 1080, wl.colour, wl.accent) },
      cssConfig: { filename: 'indexHtml.css', type: 'text/css', content: css(wl.colour, wl.accent) },
    });
    ids.whitelabel[wl.name] = created.id;
  }
}

/** Drops build folders the way CI does, records them with reload, then loses one file so update flags it. */
export async function demoBuilds({ api, ids }: DemoContext) {
  for (const wl of WHITELABELS) {
    for (const platform of PLATFORMS) {
      for (const version of VERSIONS) {
        const dir = join(api.dataDir, 'builds', wl.name, platform.name, version, '1080p');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'app.js'), `console.log(${JSON.stringify(`${wl.name} ${platform.name} ${version}`)});\n`);
        writeFileSync(join(dir, 'index.css'), css(wl.colour, wl.accent));
        writeFileSync(join(dir, 'build.json'), JSON.stringify({ maxVersion: platform.maxVersion }));
      }
    }
  }
  await api.call('GET', '/v1/admin/build/reload');
  rmSync(join(api.dataDir, 'builds/kinomax/androidtv/1.20.33/1080p/app.js'));
  await api.call('GET', '/v1/admin/build/update');
  const rows: { id: number; name: string }[] = (await api.call('GET', '/v1/admin/build/get', { pageSize: 1000 })).rows;
  ids.build = Object.fromEntries(rows.map((r) => [r.name, r.id]));
}

export async function demoOfficeIp({ api }: DemoContext) {
  await api.call('POST', '/v1/admin/officeIp/update', { ip: '10.20.30.40' });
}

export async function demoCombinations({ api, ids }: DemoContext) {
  const combos = [
    { wl: 'aurora', platform: 'tizen', version: '1.20.34', isPublished: true, description: 'Production for Samsung' },
    { wl: 'aurora', platform: 'webos', version: '1.20.34', isPublished: true, description: 'Production for LG' },
    { wl: 'nordtv', platform: 'tizen', version: '1.20.33', isPublished: true, description: 'Stable until 1.20.34 passes review' },
    { wl: 'nordtv', platform: 'tizen', version: '1.20.34', ipAddress: '10.20.30.40', description: 'Office preview of the next release' },
    {
      wl: 'kinomax', platform: 'androidtv', version: '1.20.34', appInstallId: '0b7e5c1e-2f4d-4a8b-9c3e-5d6f7a8b9c0d',
      customBuildUrls: ['https://cdn.example.com/kinomax/hotfix/app.js'], forceLocalBuild: true, description: 'One TV on a hotfix',
    },
  ];
  for (const { wl, platform, version, ...rest } of combos) {
    await api.call('GET', '/v1/admin/combination/add', {
      whitelabelId: ids.whitelabel[wl],
      platformId: ids.platform[platform],
      buildId: ids.build[`${wl}-${platform}-${version}-1080p`],
      ...rest,
    });
  }
}

export async function demoAppVersionsOnTest({ api, ids }: DemoContext) {
  await api.call('GET', '/v1/admin/versionsInStoreOnTest/add', { whitelabelId: ids.whitelabel.aurora, platformId: ids.platform.tizen, appVersion: '1.20.34', isPublished: true });
  await api.call('GET', '/v1/admin/versionsInStoreOnTest/add', { whitelabelId: ids.whitelabel.nordtv, platformId: ids.platform.webos, appVersion: '1.20.34' });
}

export async function demoInstallations({ api, ids }: DemoContext) {
  const guids = ['3f2b8c1a-7d4e-4f6a-9b2c-1e8d7a6b5c4d', 'a1c9e7f5-3b2d-4c6e-8f0a-9b7d5c3e1f2a', 'c4d3e2f1-a0b9-4c8d-9e7f-6a5b4c3d2e1f'];
  for (const [i, name] of guids.entries()) {
    await api.call('GET', '/v1/admin/installation/add', { name, userId: `user-${1001 + i}`, whitelabelId: Object.values(ids.whitelabel)[i] });
  }
}

export async function demoTechSupport({ api, ids }: DemoContext) {
  for (const [name, id] of Object.entries(ids.whitelabel)) {
    await api.call('POST', '/v1/admin/tech-support/add', { whitelabelId: id, url: `https://help.${name}.tv.example.com/contact` });
  }
}

const json = (value: unknown, filename: string) => ({ filename, type: 'application/json', content: JSON.stringify(value, null, 2) });

export async function demoLocalisations({ api, ids }: DemoContext) {
  for (const [name, id] of Object.entries(ids.whitelabel)) {
    const translations = {
      ru: { menu: { home: 'Главная', movies: 'Фильмы', settings: 'Настройки' }, welcome: `Добро пожаловать в ${name}` },
      en: { menu: { home: 'Home', movies: 'Movies', settings: 'Settings' }, welcome: `Welcome to ${name}` },
    };
    await api.call('POST', '/v1/admin/localisation/add', {}, { whitelabelId: String(id), isActive: String(name !== 'kinomax'), translations: json(translations, `${name}.json`) });
  }
}

export async function demoWlConfigs({ api, ids }: DemoContext) {
  for (const [name, id] of Object.entries(ids.whitelabel)) {
    const config = { theme: name === 'kinomax' ? 'dark' : 'light', features: { epg: true, catchUp: name !== 'nordtv', parentalControl: true }, supportEmail: `support@${name}.example.com` };
    await api.call('POST', '/v1/admin/wlConfig/add', {}, { whitelabelId: String(id), isActive: 'true', config: json(config, `${name}-config.json`) });
  }
}

/** The catalogue areas in the order they depend on each other. */
export const catalogueAreas: [string, (ctx: DemoContext) => Promise<void>][] = [
  ['platforms', demoPlatforms],
  ['whitelabels with logos and CSS', demoWhitelabels],
  ['builds', demoBuilds],
  ['office IP', demoOfficeIp],
  ['combinations', demoCombinations],
  ['app versions on test', demoAppVersionsOnTest],
  ['installations', demoInstallations],
  ['tech support', demoTechSupport],
  ['localisations', demoLocalisations],
  ['WL configs', demoWlConfigs],
];
