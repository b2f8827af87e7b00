// Build jobs of the dashboard: builds are the folders CI drops under DATA_DIR/builds, laid out as
// <whitelabel>/<platform>/<version>/<resolution>/<files>, with an optional descriptor build.json
// {"maxVersion": "XX.YY.ZZ", "files": ["app.js", ...]}. build.reload / build.reloadForWl record what is on disk;
// build.update re-checks that every stored build's files are still there. A build's expected files never shrink
// silently: they are the descriptor's `files` when CI writes one (else the files on disk), plus every file
// recorded before, and a build is available only while all of them are on disk. Progress goes to the live hub
// (console, wlStatuses, buildsStatuses, buildsErrors).
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { refusalText } from '../../kernel/manifest/error-text.ts';
import { SEMVER } from '../../kernel/rules/formats.ts';
import { conflict, fieldError } from '../errors.ts';
import { tryTransactionLock } from '../db/locks.ts';
import { localPath } from '../core/file-paths.ts';
import type { ActionContext, Engine } from '../core/context.ts';

export const BUILDS_FOLDER = 'builds';
export const DESCRIPTOR = 'build.json';
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

interface BuildProblem {
  build: string;
  /** The build's whitelabel: the dashboard keeps each whitelabel's errors until that whitelabel's builds are looked at again. */
  whitelabel: string;
  message: string;
}

async function subdirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && SAFE.test(e.name) && !e.name.startsWith('.')).map((e) => e.name).sort();
}

const isFileName = (f: unknown): f is string => typeof f === 'string' && SAFE.test(f) && !f.startsWith('.') && f !== DESCRIPTOR;

/** build.json of a folder: its maxVersion and file list when valid; a descriptor that cannot be read is a problem. */
async function readDescriptor(dir: string, name: string, whitelabel: string, problems: BuildProblem[]): Promise<{ maxVersion: string | null; files?: string[] }> {
  let meta: { maxVersion?: unknown; files?: unknown };
  try {
    meta = JSON.parse(await readFile(join(dir, DESCRIPTOR), 'utf8')) as typeof meta;
    if (!meta || typeof meta !== 'object') throw new Error('not an object');
  } catch {
    problems.push({ build: name, whitelabel, message: `${DESCRIPTOR} is not a JSON object; the files on disk are taken as the build` });
    return { maxVersion: null };
  }
  const maxVersion = typeof meta.maxVersion === 'string' && SEMVER.test(meta.maxVersion) ? meta.maxVersion : null;
  if (meta.files === undefined) return { maxVersion };
  if (!Array.isArray(meta.files) || !meta.files.length || !meta.files.every(isFileName)) {
    problems.push({ build: name, whitelabel, message: `${DESCRIPTOR} files must be a list of plain file names; the files on disk are taken as the build` });
    return { maxVersion };
  }
  return { maxVersion, files: [...new Set(meta.files)] };
}

async function readBuild(dir: string, parts: string[], problems: BuildProblem[]): Promise<FoundBuild | undefined> {
  const files = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && SAFE.test(e.name) && !e.name.startsWith('.')).map((e) => e.name).sort();
  const name = parts.join('-');
  const descriptor = files.includes(DESCRIPTOR) ? await readDescriptor(dir, name, parts[0], problems) : { maxVersion: null };
  const expected = descriptor.files ?? files.filter(isFileName);
  if (!expected.length) return undefined;
  const [ownWhitelabel, ownPlatform, ownVersion, ownResolution] = parts;
  return {
    name,
    ownWhitelabel,
    ownPlatform,
    ownVersion,
    ownResolution,
    urls: expected.map((f) => `/${BUILDS_FOLDER}/${parts.join('/')}/${f}`),
    maxVersion: descriptor.maxVersion,
  };
}

/** Every build folder on disk, optionally of one whitelabel only; descriptor problems are added to `problems`. */
export async function scanBuilds(dataDir: string, whitelabel?: string, problems: BuildProblem[] = []): Promise<FoundBuild[]> {
  const root = join(dataDir, BUILDS_FOLDER);
  const found: FoundBuild[] = [];
  for (const wl of whitelabel ? [whitelabel] : await subdirs(root)) {
    for (const platform of await subdirs(join(root, wl))) {
      for (const version of await subdirs(join(root, wl, platform))) {
        for (const resolution of await subdirs(join(root, wl, platform, version))) {
          const build = await readBuild(join(root, wl, platform, version, resolution), [wl, platform, version, resolution], problems);
          if (build) found.push(build);
        }
      }
    }
  }
  return found;
}

const buildModel = (engine: Pick<Engine, 'models'>) => {
  const model = engine.models.get('build');
  if (!model) throw new Error('build actions need the build entity');
  return model;
};

/** The stored URLs of a build row (a JSON list of strings). */
function storedUrls(value: unknown): string[] {
  try {
    const urls: unknown = JSON.parse(String(value ?? '[]'));
    return Array.isArray(urls) ? urls.filter((u): u is string => typeof u === 'string') : [];
  } catch {
    return [];
  }
}

/** The URLs whose file is not on disk (a URL outside DATA_DIR counts as missing). */
async function missingFiles(dataDir: string, urls: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const url of urls) {
    const full = localPath(dataDir, url);
    if (!full || !(await stat(full).catch(() => undefined))?.isFile()) missing.push(url);
  }
  return missing;
}

const missingText = (missing: string[]) => (missing.length ? `missing ${missing.join(', ')}` : 'no files');

/**
 * Records the builds found on disk: new ones inserted, known ones (by name) refreshed. Expected files are the
 * union of what was recorded before and what was found, so a lost file never drops out of the list; each build
 * is available only while every expected file is there.
 */
async function record(engine: Pick<Engine, 'caps' | 'dataDir' | 'models'>, db: Kysely<any>, found: FoundBuild[], problems: BuildProblem[]) {
  const table = buildModel(engine).table;
  const now = new Date().toISOString();
  let added = 0;
  const unavailable = new Set<string>();
  for (const build of found) {
    const known = await db.selectFrom(table).select(['id', 'urls']).where('name', '=', build.name).executeTakeFirst();
    const urls = [...new Set([...(known ? storedUrls(known.urls) : []), ...build.urls])];
    const missing = await missingFiles(engine.dataDir, urls);
    if (missing.length) {
      unavailable.add(build.name);
      problems.push({ build: build.name, whitelabel: build.ownWhitelabel, message: missingText(missing) });
    }
    const values = {
      ...build,
      urls: JSON.stringify(urls),
      isAvailable: engine.caps.toDbBoolean(missing.length === 0),
      lastCheckedDate: now,
      updatedAt: now,
    };
    if (known) await db.updateTable(table).set(values).where('id', '=', known.id).execute();
    else {
      await db.insertInto(table).values({ ...values, createdAt: now }).execute();
      added++;
    }
  }
  return { added, unavailable };
}

const builds = (n: number) => `${n} build${n === 1 ? '' : 's'}`;

/** One wlStatuses item per whitelabel touched: its count and, when some are, how many are unavailable. */
function statusesByWhitelabel(items: { whitelabel: string; unavailable: boolean }[], verb: string) {
  const byWl = new Map<string, { total: number; unavailable: number }>();
  for (const { whitelabel, unavailable } of items) {
    const entry = byWl.get(whitelabel) ?? { total: 0, unavailable: 0 };
    entry.total++;
    if (unavailable) entry.unavailable++;
    byWl.set(whitelabel, entry);
  }
  return [...byWl].map(([whitelabel, { total, unavailable }]) => ({
    whitelabel,
    messages: [`${builds(total)} ${verb}${unavailable ? `, ${unavailable} unavailable` : ''}`],
  }));
}

/**
 * Reports a reload on the live hub. `whitelabel` names the one whitelabel a reload for wl looked at: its buildsErrors
 * item is then {whitelabel, errors}, which replaces that whitelabel's errors only; a list replaces all of them.
 */
function report(engine: Pick<Engine, 'live'>, scope: string, found: FoundBuild[], recorded: { added: number; unavailable: Set<string> }, problems: BuildProblem[], whitelabel?: string) {
  const { added, unavailable } = recorded;
  const line = `${scope}: ${builds(found.length)} on disk, ${added} new, ${unavailable.size} unavailable`;
  engine.live.emit('console', `${new Date().toISOString()} ${line}`);
  engine.live.emit('wlStatuses', statusesByWhitelabel(found.map((b) => ({ whitelabel: b.ownWhitelabel, unavailable: unavailable.has(b.name) })), 'reloaded'));
  engine.live.emit('buildsErrors', whitelabel === undefined ? problems : { whitelabel, errors: problems });
  return { found: found.length, added };
}

/** One build job at a time over every process: a second one, on this process or another, is refused at once. */
async function oneJobAtATime(engine: Pick<Engine, 'caps'>, db: Kysely<any>): Promise<void> {
  if (!(await tryTransactionLock(db, engine.caps, 'builds'))) {
    throw conflict('Another build reload or update is running; try again when it has finished');
  }
}

export async function reloadBuilds({ engine, db }: ActionContext) {
  await oneJobAtATime(engine, db);
  const problems: BuildProblem[] = [];
  const found = await scanBuilds(engine.dataDir, undefined, problems);
  return report(engine, 'Reload builds', found, await record(engine, db, found, problems), problems);
}

export async function reloadBuildsForWl({ engine, db, input }: ActionContext) {
  await oneJobAtATime(engine, db);
  const whitelabel = await db
    .selectFrom(engine.models.get('whitelabel')!.table)
    .select('name')
    .where('id', '=', input.whitelabelId as number)
    .executeTakeFirst();
  if (!whitelabel) throw fieldError('whitelabelId', refusalText.noRecord('Whitelabel ID', 'whitelabel', input.whitelabelId));
  const name = String(whitelabel.name);
  const problems: BuildProblem[] = [];
  const found = await scanBuilds(engine.dataDir, name, problems);
  return report(engine, `Reload builds for ${name}`, found, await record(engine, db, found, problems), problems, name);
}

/** Marks each stored build available when all of its files are still on disk, unavailable otherwise. */
export async function updateBuildStatuses({ engine, db }: ActionContext) {
  await oneJobAtATime(engine, db);
  const table = buildModel(engine).table;
  const rows = await db.selectFrom(table).select(['id', 'name', 'urls', 'ownWhitelabel']).execute();
  const now = new Date().toISOString();
  const errors: BuildProblem[] = [];
  const checked: { whitelabel: string; unavailable: boolean }[] = [];
  engine.live.emit('buildsStatuses', [{ process: 'update', checked: 0, total: rows.length }]);
  for (const row of rows) {
    const urls = storedUrls(row.urls);
    const missing = await missingFiles(engine.dataDir, urls);
    const isAvailable = urls.length > 0 && missing.length === 0;
    if (!isAvailable) errors.push({ build: String(row.name), whitelabel: String(row.ownWhitelabel), message: missingText(missing) });
    checked.push({ whitelabel: String(row.ownWhitelabel), unavailable: !isAvailable });
    await db.updateTable(table).set({ isAvailable: engine.caps.toDbBoolean(isAvailable), lastCheckedDate: now }).where('id', '=', row.id).execute();
  }
  engine.live.emit('buildsStatuses', []);
  engine.live.emit('buildsErrors', errors);
  engine.live.emit('wlStatuses', statusesByWhitelabel(checked, 'checked'));
  engine.live.emit('console', `${now} Update builds statuses: ${rows.length - errors.length} available, ${errors.length} unavailable`);
  return { checked: rows.length, unavailable: errors.length };
}
