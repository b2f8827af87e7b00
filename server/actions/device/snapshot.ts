// The device lookup's in-memory copy of what it reads, so a TV start costs no SQL. It is made of parts, each
// loaded from its tables; a committed write (the change feed, which on PostgreSQL also carries the other server
// processes' writes) marks the parts that read its entity stale, and the next lookup waits for them to be
// reloaded, so a change in the panel is in the very next answer. A poll is the safety net: on SQLite it reloads
// a part when another connection committed since the part was read (PRAGMA data_version, free when nothing
// changed); where the database cannot say (PostgreSQL), every part is reloaded in the background now and then.
import type { Engine } from '../../core/context.ts';
import { fromDb } from '../../core/rows.ts';
import { UnavailableError } from '../../errors.ts';
import { compareVersionsDesc } from '../versions.ts';
import { ipRanges, type IpRanges } from './ip-ranges.ts';

export interface WhitelabelEntry {
  id: number;
  name: string;
  feUrl: string | null;
  imageHD: string | null;
  imageFHD: string | null;
  cssConfig: string | null;
  maxVersion: string | null;
}

export interface PlatformEntry {
  id: number;
  name: string;
  maxVersion: string | null;
}

export interface BuildEntry {
  id: number;
  name: string;
  whitelabel: string;
  platform: string;
  version: string;
  resolution: string;
  urls: string[];
  isAvailable: boolean;
  /** The version compared as numbers: `01.20.0` -> `1.20`. */
  versionKey: string;
}

export interface Catalogue {
  whitelabelsByName: Map<string, WhitelabelEntry>;
  whitelabelsById: Map<number, WhitelabelEntry>;
  platformsByName: Map<string, PlatformEntry>;
  platformsById: Map<number, PlatformEntry>;
  builds: Map<number, BuildEntry>;
  /**
   * Rule 5's candidates by `whitelabelId:platformId`: available builds of that whitelabel and platform with a
   * dotted numeric version within both max versions, newest version first.
   */
  latest: Map<string, BuildEntry[]>;
  /** Version keys on test and not published, by `whitelabelId:platformId`. */
  unpublishedOnTest: Map<string, Set<string>>;
  /** The active localisation's translations, the active WL config and the tech-support URL, by whitelabel id. */
  translations: Map<number, unknown>;
  configs: Map<number, unknown>;
  techSupport: Map<number, string>;
}

export interface CombinationEntry {
  id: number;
  whitelabelId: number | null;
  platformId: number | null;
  buildId: number;
  customBuildUrls: string[];
  forceLocalBuild: boolean;
}

export interface Combinations {
  /** Newest first. */
  byDevice: Map<string, CombinationEntry[]>;
  byIp: Map<string, CombinationEntry[]>;
  /** Published combinations without device or IP, by `whitelabelId:platformId`, newest first. */
  published: Map<string, CombinationEntry[]>;
}

export interface GroupEntry {
  count: number;
  groupName: string | null;
  customUrl: string | null;
  files: Record<string, string[]>;
}

export interface ExperimentEntry {
  id: number;
  whitelabelId: number;
  platformIds: Set<number>;
  modelNames: Set<string>;
  recordsCount: number;
  isActive: boolean;
  isCollecting: boolean;
  isRandomSaveEnable: boolean;
  probability: number;
  /** Group n of the docs is groups[n - 1]. */
  groups: GroupEntry[];
  /** The collection: appInstallId -> group number (null for a user recorded without one). */
  members: Map<string, number | null>;
  total: number;
}

export interface Experiments {
  /** Newest first. */
  byWhitelabel: Map<number, ExperimentEntry[]>;
  byId: Map<number, ExperimentEntry>;
}

export interface Snapshot {
  catalogue: Catalogue;
  combinations: Combinations;
  experiments: Experiments;
  testers: IpRanges;
}

/** How often the poll asks whether another connection wrote (SQLite). */
export const SNAPSHOT_POLL_MS = 30_000;
/** How old a part may get where the database cannot say whether it changed (rows edited by hand in psql). */
export const SNAPSHOT_MAX_AGE_MS = 10 * 60_000;

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/** Every row of an entity's table, the named fields converted from their stored form. */
async function rows(engine: Pick<Engine, 'db' | 'models'>, entity: string, fields: string[]): Promise<Record<string, any>[]> {
  const model = engine.models.get(entity);
  if (!model) throw new Error(`the device lookup needs the ${entity} entity`);
  const found = await engine.db.selectFrom(model.table).select(fields).orderBy('id', 'desc').execute();
  return found.map((row) => Object.fromEntries(fields.map((f) => [f, fromDb(model.kindOf(f), row[f])])));
}

/** The strings of a stored JSON list (anything else in it, or a value that is no list, is left out). */
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

const isDottedVersion = (text: string) => /^\d+(\.\d+)*$/.test(text);

/** Equal keys for versions equal as numbers part by part: `versionKey('01.20.0') === versionKey('1.20')`. */
export function versionKey(text: string): string {
  const parts = text.split('.').map(Number);
  while (parts.length > 1 && parts[parts.length - 1] === 0) parts.pop();
  return parts.join('.');
}

async function loadCatalogue(engine: Pick<Engine, 'db' | 'models'>): Promise<Catalogue> {
  const [whitelabels, platforms, builds, onTest, localisations, configs, support] = await Promise.all([
    rows(engine, 'whitelabel', ['id', 'name', 'feUrl', 'imageHD', 'imageFHD', 'cssConfig', 'maxVersion']),
    rows(engine, 'platform', ['id', 'name', 'maxVersion']),
    rows(engine, 'build', ['id', 'name', 'ownWhitelabel', 'ownPlatform', 'ownVersion', 'ownResolution', 'urls', 'isAvailable']),
    rows(engine, 'appVersionOnTest', ['whitelabelId', 'platformId', 'appVersion', 'isPublished']),
    rows(engine, 'localisation', ['whitelabelId', 'translations', 'isActive']),
    rows(engine, 'wlConfig', ['whitelabelId', 'config', 'isActive']),
    rows(engine, 'techSupport', ['whitelabelId', 'url']),
  ]);
  const catalogue: Catalogue = {
    whitelabelsByName: new Map(),
    whitelabelsById: new Map(),
    platformsByName: new Map(),
    platformsById: new Map(),
    builds: new Map(),
    latest: new Map(),
    unpublishedOnTest: new Map(),
    translations: new Map(),
    configs: new Map(),
    techSupport: new Map(),
  };
  for (const w of whitelabels) {
    const entry: WhitelabelEntry = { id: w.id, name: w.name, feUrl: w.feUrl, imageHD: w.imageHD, imageFHD: w.imageFHD, cssConfig: w.cssConfig, maxVersion: w.maxVersion };
    catalogue.whitelabelsByName.set(entry.name, entry);
    catalogue.whitelabelsById.set(entry.id, entry);
  }
  for (const p of platforms) {
    const entry: PlatformEntry = { id: p.id, name: p.name, maxVersion: p.maxVersion };
    catalogue.platformsByName.set(entry.name, entry);
    catalogue.platformsById.set(entry.id, entry);
  }
  for (const b of builds) {
    const entry: BuildEntry = {
      id: b.id,
      name: b.name,
      whitelabel: b.ownWhitelabel,
      platform: b.ownPlatform,
      version: b.ownVersion,
      resolution: b.ownResolution,
      urls: strings(b.urls),
      isAvailable: b.isAvailable,
      versionKey: versionKey(String(b.ownVersion)),
    };
    catalogue.builds.set(entry.id, entry);
    const whitelabel = catalogue.whitelabelsByName.get(entry.whitelabel);
    const platform = catalogue.platformsByName.get(entry.platform);
    if (!whitelabel || !platform || !entry.isAvailable || !isDottedVersion(String(entry.version))) continue;
    const limits = [platform.maxVersion, whitelabel.maxVersion].filter((v): v is string => !!v);
    if (limits.every((max) => compareVersionsDesc(entry.version, max) >= 0)) push(catalogue.latest, `${whitelabel.id}:${platform.id}`, entry);
  }
  for (const list of catalogue.latest.values()) {
    list.sort((a, b) => compareVersionsDesc(a.version, b.version) || a.name.localeCompare(b.name));
  }
  for (const v of onTest) {
    if (v.isPublished) continue;
    const key = `${v.whitelabelId}:${v.platformId}`;
    const set = catalogue.unpublishedOnTest.get(key) ?? new Set<string>();
    set.add(versionKey(String(v.appVersion)));
    catalogue.unpublishedOnTest.set(key, set);
  }
  for (const l of localisations) if (l.isActive) catalogue.translations.set(l.whitelabelId, l.translations);
  for (const c of configs) if (c.isActive) catalogue.configs.set(c.whitelabelId, c.config);
  // Rows come newest first: the first URL seen for a whitelabel is its newest.
  for (const t of support) if (!catalogue.techSupport.has(t.whitelabelId)) catalogue.techSupport.set(t.whitelabelId, t.url);
  return catalogue;
}

async function loadCombinations(engine: Pick<Engine, 'db' | 'models'>): Promise<Combinations> {
  const found = await rows(engine, 'combination', ['id', 'whitelabelId', 'platformId', 'buildId', 'appInstallId', 'ipAddress', 'customBuildUrls', 'forceLocalBuild', 'isPublished']);
  const out: Combinations = { byDevice: new Map(), byIp: new Map(), published: new Map() };
  for (const c of found) {
    const entry: CombinationEntry = {
      id: c.id,
      whitelabelId: c.whitelabelId,
      platformId: c.platformId,
      buildId: c.buildId,
      customBuildUrls: strings(c.customBuildUrls),
      forceLocalBuild: Boolean(c.forceLocalBuild),
    };
    if (c.appInstallId) push(out.byDevice, String(c.appInstallId), entry);
    if (c.ipAddress) push(out.byIp, String(c.ipAddress), entry);
    const key = `${c.whitelabelId}:${c.platformId}`;
    if (c.isPublished && !c.appInstallId && !c.ipAddress) push(out.published, key, entry);
  }
  return out;
}

/** The deployment blocks of an experiment as groups; a malformed block is an empty group that never fills. */
export function groupsOf(settings: unknown): GroupEntry[] {
  return (Array.isArray(settings) ? settings : []).map((block) => {
    const b = (block ?? {}) as Record<string, unknown>;
    const files: Record<string, string[]> = {};
    if (b.files && typeof b.files === 'object') {
      for (const [platform, list] of Object.entries(b.files)) files[platform] = strings(list);
    }
    return {
      count: typeof b.count === 'number' ? b.count : 0,
      groupName: typeof b.groupName === 'string' && b.groupName ? b.groupName : null,
      customUrl: typeof b.customUrl === 'string' && b.customUrl ? b.customUrl : null,
      files,
    };
  });
}

async function loadExperiments(engine: Pick<Engine, 'db' | 'models'>): Promise<Experiments> {
  const [experiments, users] = await Promise.all([
    rows(engine, 'experiment', ['id', 'whitelabelId', 'platformIds', 'modelNames', 'recordsCount', 'isActive', 'isCollecting', 'isRandomSaveEnable', 'probability', 'versionsDeploymentSettings']),
    rows(engine, 'experimentUser', ['abtestingId', 'appInstallId', 'groupNumber']),
  ]);
  const out: Experiments = { byWhitelabel: new Map(), byId: new Map() };
  for (const e of experiments) {
    const entry: ExperimentEntry = {
      id: e.id,
      whitelabelId: e.whitelabelId,
      platformIds: new Set(Array.isArray(e.platformIds) ? e.platformIds : []),
      modelNames: new Set(Array.isArray(e.modelNames) ? e.modelNames : []),
      recordsCount: e.recordsCount,
      isActive: e.isActive,
      isCollecting: e.isCollecting,
      isRandomSaveEnable: e.isRandomSaveEnable,
      probability: e.probability ?? 1,
      groups: groupsOf(e.versionsDeploymentSettings),
      members: new Map(),
      total: 0,
    };
    push(out.byWhitelabel, entry.whitelabelId, entry);
    out.byId.set(entry.id, entry);
  }
  for (const u of users) {
    const experiment = out.byId.get(u.abtestingId);
    if (experiment) addMember(experiment, u.appInstallId, u.groupNumber);
  }
  return out;
}

/** Adds a device to an experiment's collection once (a second call for the same device changes nothing). */
export function addMember(experiment: ExperimentEntry, appInstallId: string, group: number | null): void {
  if (experiment.members.has(appInstallId)) return;
  experiment.members.set(appInstallId, group);
  experiment.total += 1;
}

async function loadTesters(engine: Pick<Engine, 'db' | 'models'>): Promise<IpRanges> {
  const model = engine.models.get('testerIP');
  if (!model) throw new Error('the device lookup needs the testerIP entity');
  const found = await engine.db.selectFrom(model.table).select('ip').execute();
  return ipRanges(found.map((row) => String(row.ip)));
}

/** One part of the snapshot: reloaded when stale, one load at a time, callers waiting for a fresh one. */
class Part<T> {
  private current?: T;
  private loadedGen = -1;
  private wantedGen = 0;
  private loading?: Promise<void>;
  /** The database's data version read just before this copy was (null where there is none). */
  version: number | null = null;
  loadedAt = 0;
  constructor(
    private readonly load: () => Promise<T>,
    private readonly dataVersion: () => Promise<number | null>,
  ) {}

  invalidate(): void {
    this.wantedGen += 1;
  }

  get loaded(): boolean {
    return this.current !== undefined;
  }

  peek(): T | undefined {
    return this.current;
  }

  /** The copy when nothing announced since it was loaded; undefined when it must be (re)loaded first. */
  fresh(): T | undefined {
    return this.loadedGen >= this.wantedGen ? this.current : undefined;
  }

  /** The part as of the last change announced before this call. */
  async get(): Promise<T> {
    while (this.loadedGen < this.wantedGen || this.current === undefined) {
      try {
        await this.reload();
      } catch (error) {
        // The database is away: an older copy answers rather than nothing.
        if (this.current !== undefined) return this.current;
        // Retry-After as the outage says, so that a device comes back when the database may be.
        const retryAfter = error instanceof UnavailableError ? error.retryAfterSeconds : 5;
        throw new UnavailableError(`The device lookup cannot read its data yet: ${(error as Error).message}`, retryAfter);
      }
    }
    return this.current;
  }

  /** Reloads in the background: callers keep the current copy until the new one is in. */
  refresh(): Promise<void> {
    return this.reload();
  }

  private reload(): Promise<void> {
    if (!this.loading) {
      const gen = this.wantedGen;
      this.loading = (async () => {
        const version = await this.dataVersion();
        const value = await this.load();
        this.current = value;
        this.loadedGen = gen;
        this.version = version;
        this.loadedAt = Date.now();
      })()
        .finally(() => {
          this.loading = undefined;
        });
    }
    return this.loading;
  }
}

export interface SnapshotStore {
  get(): Promise<Snapshot>;
  /** The snapshot when every part is fresh (nothing announced since it was loaded), without waiting; else undefined. */
  fresh(): Snapshot | undefined;
  /** The experiments part as it is now, for recording a device that just joined a collection. */
  experimentsNow(): Experiments | undefined;
  /** What the timer runs: reloads the parts another connection may have changed (tests call it directly). */
  poll(): Promise<void>;
  stop(): void;
}

/** Which parts read which entity; a change of any other entity leaves the snapshot as it is. */
const READS: Record<string, keyof Snapshot> = {
  whitelabel: 'catalogue',
  platform: 'catalogue',
  build: 'catalogue',
  appVersionOnTest: 'catalogue',
  localisation: 'catalogue',
  wlConfig: 'catalogue',
  techSupport: 'catalogue',
  combination: 'combinations',
  experiment: 'experiments',
  experimentUser: 'experiments',
  testerIP: 'testers',
};

/**
 * @example const store = createSnapshotStore(engine, ['/v1/combination/get']); const snap = await store.get();
 * `ownPaths`: calls whose writes the store applies itself (a device joining a collection), so they cost no reload.
 */
export function createSnapshotStore(engine: Pick<Engine, 'caps' | 'changes' | 'db' | 'models'>, ownPaths: string[], pollMs = SNAPSHOT_POLL_MS, maxAgeMs = SNAPSHOT_MAX_AGE_MS): SnapshotStore {
  const dataVersion = () => engine.caps.dataVersion(engine.db);
  const parts = {
    catalogue: new Part(() => loadCatalogue(engine), dataVersion),
    combinations: new Part(() => loadCombinations(engine), dataVersion),
    experiments: new Part(() => loadExperiments(engine), dataVersion),
    testers: new Part(() => loadTesters(engine), dataVersion),
  };
  const own = new Set(ownPaths);
  const stopFeed = engine.changes.on((change) => {
    const part = READS[change.entity];
    if (part && !own.has(change.path)) parts[part].invalidate();
  });
  const poll = async () => {
    // Only a snapshot in use is refreshed; a server that never answered a device reads nothing.
    const loaded = Object.values(parts).filter((part) => part.loaded);
    if (!loaded.length) return;
    const version = await dataVersion();
    for (const part of loaded) {
      const stale = version === null ? Date.now() - part.loadedAt >= maxAgeMs : part.version !== version;
      if (stale) await part.refresh();
    }
  };
  const timer = setInterval(() => poll().catch((error) => console.error('device lookup snapshot reload failed:', error)), pollMs);
  timer.unref();
  let last: Snapshot | undefined;
  const fresh = () => {
    const { catalogue, combinations, experiments, testers } = parts;
    return last &&
      last.catalogue === catalogue.fresh() &&
      last.combinations === combinations.fresh() &&
      last.experiments === experiments.fresh() &&
      last.testers === testers.fresh()
      ? last
      : undefined;
  };
  return {
    fresh,
    async get() {
      // The hot path: every part fresh, the same object as the last lookup's (no allocation, no waiting).
      const [catalogue, combinations, experiments, testers] = [parts.catalogue.fresh(), parts.combinations.fresh(), parts.experiments.fresh(), parts.testers.fresh()];
      if (last && last.catalogue === catalogue && last.combinations === combinations && last.experiments === experiments && last.testers === testers) return last;
      const loaded = await Promise.all([parts.catalogue.get(), parts.combinations.get(), parts.experiments.get(), parts.testers.get()]);
      last = { catalogue: loaded[0], combinations: loaded[1], experiments: loaded[2], testers: loaded[3] };
      return last;
    },
    experimentsNow: () => parts.experiments.peek(),
    poll,
    stop() {
      stopFeed();
      clearInterval(timer);
    },
  };
}
