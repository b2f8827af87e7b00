// Build jobs of the dashboard: builds are the folders CI drops under DATA_DIR/builds, laid out as
// <whitelabel>/<platform>/<version>/<resolution>/<files>, with an optional build.json {"maxVersion": "XX.YY.ZZ"}.
// build.reload / build.reloadForWl record what is on disk; build.update re-checks that every stored build's
// files are still there. Progress goes to the live hub (console, wlStatuses, buildsStatuses, buildsErrors).
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { badRequest } from '../errors.ts';
import type { Engine } from '../crud/context.ts';
import { localPath } from '../crud/files.ts';
import type { ActionContext } from './index.ts';

export const BUILDS_FOLDER = 'builds';
const SAFE = /^[A-Za-z0-9._-]+$/;

interface FoundBuild {
  name: string;
  ownWhitelabel: string;
  ownPlatform: string;
  ownVersion: string;
  ownResolution: string;
  urls: string[];
  maxVersion: string | null;
}

async function subdirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && SAFE.test(e.name) && !e.name.startsWith('.')).map((e) => e.name).sort();
}

async function readBuild(dir: string, parts: string[]): Promise<FoundBuild | undefined> {
  const files = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && SAFE.test(e.name) && !e.name.startsWith('.')).map((e) => e.name).sort();
  const artefacts = files.filter((f) => f !== 'build.json');
  if (!artefacts.length) return undefined;
  let maxVersion: string | null = null;
  if (files.includes('build.json')) {
    const meta = JSON.parse(await readFile(join(dir, 'build.json'), 'utf8').catch(() => '{}')) as { maxVersion?: unknown };
    if (typeof meta.maxVersion === 'string' && /^\d{1,2}\.\d{1,2}\.\d{1,2}$/.test(meta.maxVersion)) maxVersion = meta.maxVersion;
  }
  const [ownWhitelabel, ownPlatform, ownVersion, ownResolution] = parts;
  return {
    name: parts.join('-'),
    ownWhitelabel,
    ownPlatform,
    ownVersion,
    ownResolution,
    urls: artefacts.map((f) => `/${BUILDS_FOLDER}/${parts.join('/')}/${f}`),
    maxVersion,
  };
}

/** Every build folder on disk, optionally of one whitelabel only. */
export async function scanBuilds(dataDir: string, whitelabel?: string): Promise<FoundBuild[]> {
  const root = join(dataDir, BUILDS_FOLDER);
  const found: FoundBuild[] = [];
  for (const wl of whitelabel ? [whitelabel] : await subdirs(root)) {
    for (const platform of await subdirs(join(root, wl))) {
      for (const version of await subdirs(join(root, wl, platform))) {
        for (const resolution of await subdirs(join(root, wl, platform, version))) {
          const build = await readBuild(join(root, wl, platform, version, resolution), [wl, platform, version, resolution]);
          if (build) found.push(build);
        }
      }
    }
  }
  return found;
}

const buildModel = (engine: Engine) => {
  const model = engine.models.get('build');
  if (!model) throw new Error('build actions need the build entity');
  return model;
};

/** Records the builds found on disk: new ones inserted, known ones (by name) refreshed and marked available. */
async function record(engine: Engine, db: Kysely<any>, found: FoundBuild[]) {
  const table = buildModel(engine).table;
  const now = new Date().toISOString();
  let added = 0;
  for (const build of found) {
    const values = {
      ...build,
      urls: JSON.stringify(build.urls),
      isAvailable: engine.caps.toDbBoolean(true),
      lastCheckedDate: now,
      updatedAt: now,
    };
    const known = await db.selectFrom(table).select('id').where('name', '=', build.name).executeTakeFirst();
    if (known) await db.updateTable(table).set(values).where('id', '=', known.id).execute();
    else {
      await db.insertInto(table).values({ ...values, createdAt: now }).execute();
      added++;
    }
  }
  return added;
}

const builds = (n: number) => `${n} build${n === 1 ? '' : 's'}`;

function report(engine: Engine, scope: string, found: FoundBuild[], added: number) {
  const byWl = new Map<string, number>();
  for (const b of found) byWl.set(b.ownWhitelabel, (byWl.get(b.ownWhitelabel) ?? 0) + 1);
  const line = `${scope}: ${builds(found.length)} on disk, ${added} new`;
  engine.live.emit('console', `${new Date().toISOString()} ${line}`);
  engine.live.emit('wlStatuses', [...byWl].map(([whitelabel, count]) => ({ whitelabel, messages: [`${builds(count)} reloaded`] })));
  return { found: found.length, added };
}

export async function reloadBuilds({ engine, db }: ActionContext) {
  const found = await scanBuilds(engine.dataDir);
  return report(engine, 'Reload builds', found, await record(engine, db, found));
}

export async function reloadBuildsForWl({ engine, db, input }: ActionContext) {
  const whitelabel = await db
    .selectFrom(engine.models.get('whitelabel')!.table)
    .select('name')
    .where('id', '=', input.whitelabelId as number)
    .executeTakeFirst();
  if (!whitelabel) throw badRequest(`whitelabelId: no whitelabel with id ${String(input.whitelabelId)}`);
  const name = String(whitelabel.name);
  const found = await scanBuilds(engine.dataDir, name);
  return report(engine, `Reload builds for ${name}`, found, await record(engine, db, found));
}

/** Marks each stored build available when all of its files are still on disk, unavailable otherwise. */
export async function updateBuildStatuses({ engine, db }: ActionContext) {
  const table = buildModel(engine).table;
  const rows = await db.selectFrom(table).select(['id', 'name', 'urls']).execute();
  const now = new Date().toISOString();
  const errors: { build: string; message: string }[] = [];
  engine.live.emit('buildsStatuses', [{ process: 'update', checked: 0, total: rows.length }]);
  for (const row of rows) {
    const urls = JSON.parse(String(row.urls ?? '[]')) as unknown[];
    const missing: string[] = [];
    for (const url of Array.isArray(urls) ? urls : []) {
      const full = typeof url === 'string' ? localPath(engine.dataDir, url) : undefined;
      if (!full || !(await stat(full).catch(() => undefined))?.isFile()) missing.push(String(url));
    }
    const isAvailable = urls.length > 0 && missing.length === 0;
    if (!isAvailable) errors.push({ build: String(row.name), message: missing.length ? `missing ${missing.join(', ')}` : 'no files' });
    await db.updateTable(table).set({ isAvailable: engine.caps.toDbBoolean(isAvailable), lastCheckedDate: now }).where('id', '=', row.id).execute();
  }
  engine.live.emit('buildsStatuses', []);
  engine.live.emit('buildsErrors', errors);
  engine.live.emit('console', `${now} Update builds statuses: ${rows.length - errors.length} available, ${errors.length} unavailable`);
  return { checked: rows.length, unavailable: errors.length };
}
