// combination.lookup, GET /v1/combination/get: which build a starting TV application loads, and everything else
// it needs to start, in one answer. The resolution order is docs/device-api.md; this file implements exactly
// that, from the in-memory snapshot (server/actions/device/snapshot.ts), writing only when a device joins an
// A/B collection (collect.ts).
import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify';
import type { Engine } from '../../core/context.ts';
import { notFound } from '../../errors.ts';
import { configuredOrigin } from '../../hosts.ts';
import type { ActionContext } from '../types.ts';
import { experimentOf, type Membership } from './collect.ts';
import { createSnapshotStore, type BuildEntry, type CombinationEntry, type PlatformEntry, type Snapshot, type SnapshotStore, type WhitelabelEntry } from './snapshot.ts';

export type MatchedBy = 'device' | 'ip' | 'experiment' | 'published' | 'latest';

export interface LookupInput {
  platform?: { name: string } | null;
  ipAddress?: string | null;
  appInstallId?: string | null;
  whitelabel?: string | null;
  resolution?: string | null;
  modelName?: string | null;
  version?: string | null;
  userId?: string | null;
}

export interface PublicBuild {
  name: string;
  version: string | null;
  resolution: string | null;
  urls: string[];
  customUrl?: string | null;
  forceLocalBuild: boolean;
}

interface DeviceLookup {
  store: SnapshotStore;
  publicUrl?: string;
  /** The panel's hosts (availableHosts): without PUBLIC_URL, only these may become the host of the answer's URLs. */
  hosts: ReadonlySet<string>;
}

const lookups = new WeakMap<object, DeviceLookup>();

/** Starts the snapshot of this server's lookup; it stops with the server. */
export function registerDeviceLookup(app: FastifyInstance, engine: Pick<Engine, 'caps' | 'changes' | 'db' | 'manifests' | 'models'>, publicUrl: string | undefined, panelHosts: string[]): void {
  const paths = engine.manifests.flatMap((m) => Object.values(m.actions).filter((a) => a.handler === 'combination.lookup').map((a) => a.path));
  const store = createSnapshotStore(engine, paths);
  lookups.set(engine, { store, publicUrl: publicUrl?.replace(/\/+$/, ''), hosts: new Set(panelHosts) });
  app.addHook('onClose', async () => store.stop());
  const own = new Set(paths);
  // Every answer of the lookup (a build, a 404, a 429) is one device's at one moment: it follows the caller's address,
  // which no URL carries (so no Vary could key it), may record the device in a collection, and must reflect a staff
  // change at the next start. no-store: neither the TV's HTTP stack nor a proxy keeps it; private for old proxies.
  // A hook of the lookup's own routes (declared after this), so no other call pays for it.
  const noStore: onSendHookHandler = (_request, reply, payload, done) => {
    reply.header('cache-control', 'private, no-store');
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (!own.has(route.url)) return;
    route.onSend = [...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []), noStore];
    const handler = route.handler;
    const serialize = answerSerializer(route.schema?.response as Record<string, unknown> | undefined);
    // Only for an answer: a refusal (thrown) goes the usual way, with the usual headers.
    route.handler = async function (this: unknown, request, reply) {
      const result = await handler.call(this as never, request, reply);
      const serializer = serialize(reply);
      if (serializer) reply.serializer(serializer).header('content-type', 'application/json; charset=utf-8');
      return result;
    };
  });
}

/** The lookup's snapshot store of a server (for tests that make it poll). */
export function deviceSnapshot(engine: Pick<Engine, never>): SnapshotStore | undefined {
  return lookups.get(engine)?.store;
}

/** Origins the requests named, and the base each gives (a few per server; bounded, as the Host header is the caller's). */
const origins = new WeakMap<DeviceLookup, Map<string | undefined, string>>();
const KEPT_ORIGINS = 64;

/** The answer's base for a request's origin: a panel host's origin, else '' (configuredOrigin, once per origin). */
function originOf(state: DeviceLookup, origin: string | undefined): string {
  let kept = origins.get(state);
  if (!kept) origins.set(state, (kept = new Map()));
  let base = kept.get(origin);
  if (base === undefined) {
    base = configuredOrigin(origin, state.hosts) ?? '';
    if (kept.size >= KEPT_ORIGINS) kept.clear();
    kept.set(origin, base);
  }
  return base;
}

/** `::ffff:10.0.0.1` (an IPv4 client of a dual-stack socket) is 10.0.0.1. */
const plainIpv4 = (ip: string) => (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);

/** Stored paths (`/builds/...`, `/whitelabels/...`) become absolute on the backend's URL; full URLs stay. */
function absolute(base: string, url: string | null): string | null {
  if (!url) return null;
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `${base}${url.startsWith('/') ? '' : '/'}${url}`;
}

const keyOf = (whitelabelId: number | null, platformId: number | null) => `${whitelabelId}:${platformId}`;

/** The cached answer of the kind an answer object is of (what `answer` kept for it), on the object; no serializer reads symbol keys. */
const KIND = Symbol('answer kind');

/** An answer kind: the answer without its `ip`, and once serialized, the route's JSON of it up to the ip's value. */
interface AnswerKind {
  answer: Omit<PlainAnswer, 'ip'>;
  head?: string;
}

type PlainAnswer = ReturnType<typeof buildAnswer>;
type Answer = PlainAnswer & { [KIND]?: AnswerKind };

/** The tail of the route's JSON of an answer whose ip is empty: `"ip":""` and the two closing braces. */
const EMPTY_IP_TAIL = '""}}';

/**
 * The lookup's serializer, from the route's own response schema: Fastify's compiled serializer of the 200 answer
 * (fast-json-stringify) writes each answer kind once, with an empty ip, and the kind keeps that text up to the ip's
 * value; an answer is then that text, its ip by the serializer of the schema's `ip`, and the closing braces. Writing
 * every answer whole from the schema cost 6-7 us a call (the free-form localisation and config and the nullable
 * objects each take a branch), the kept text and the ip 0.2 us: ~3 % of a lookup's CPU at the goal's rates (issue 34).
 * The same bytes either way; anything else (no kind, a schema whose `ip` is not the answer's last key) is written
 * whole by the route's serializer.
 */
function answerSerializer(response: Record<string, unknown> | undefined): (reply: FastifyReply) => ((payload: unknown) => string) | undefined {
  const data = (response?.['200'] as { properties?: { data?: { properties?: Record<string, unknown> } } } | undefined)?.properties?.data?.properties;
  const ipSchema = data?.ip as Record<string, unknown> | undefined;
  if (!data || !ipSchema || Object.keys(data).at(-1) !== 'ip') return () => undefined;
  // Compiled at the route's first answer (its serializers are Fastify's, built with the route), then the same.
  let serializer: ((payload: unknown) => string) | undefined;
  return (reply) => {
    if (serializer) return serializer;
    const whole = reply.getSerializationFunction('200') as ((payload: unknown) => string) | undefined;
    if (!whole) return undefined;
    const ipText = reply.compileSerializationSchema(ipSchema) as (ip: unknown) => string;
    serializer = (payload) => {
      const answer = (payload as { data?: Answer } | null)?.data;
      const kind = answer?.[KIND];
      if (!kind || (payload as { result?: unknown }).result !== true || Object.keys(payload as object).length !== 2) return whole(payload);
      if (kind.head === undefined) {
        const text = whole({ result: true, data: { ...kind.answer, ip: '' } });
        if (!text.endsWith(EMPTY_IP_TAIL)) return whole(payload);
        kind.head = text.slice(0, -EMPTY_IP_TAIL.length);
      }
      return `${kind.head}${ipText(answer!.ip)}}}`;
    };
    return serializer;
  };
}

/**
 * Answers without their `ip`, by what decides them, for one snapshot: the devices of one whitelabel and platform get
 * the same few answers, and building and serializing one cost more than the rest of the lookup (issue 34).
 */
const answers = new WeakMap<Snapshot, Map<string, AnswerKind>>();
/** Answers kept per snapshot at most (a combination per device may make many); past it the cache starts again. */
const KEPT_ANSWERS = 10_000;

/** The answer of `key` (its kind, build, whitelabel, platform, membership and base) for the device at `ip`. */
function answer(
  key: string,
  snap: Snapshot,
  base: string,
  matchedBy: MatchedBy,
  build: () => PublicBuild,
  whitelabel: WhitelabelEntry | undefined,
  platform: PlatformEntry | undefined,
  membership: Membership | undefined,
  ip: string,
): Answer {
  let kept = answers.get(snap);
  if (!kept) answers.set(snap, (kept = new Map()));
  const full = `${key}|${whitelabel?.id}|${platform?.id}|${membership ? `${membership.experiment.id}:${membership.group}:${membership.experiment.isActive}` : ''}|${base}`;
  let found = kept.get(full);
  if (!found) {
    const { ip: _ip, ...rest } = buildAnswer(snap, base, matchedBy, build(), whitelabel, platform, membership, '');
    found = { answer: rest };
    if (kept.size >= KEPT_ANSWERS) kept.clear();
    kept.set(full, found);
  }
  return { ...found.answer, ip, [KIND]: found };
}

/** A device's answer: only what the application needs and may see (no staff ids, e-mails or descriptions). */
function buildAnswer(
  snap: Snapshot,
  base: string,
  matchedBy: MatchedBy,
  build: PublicBuild,
  whitelabel: WhitelabelEntry | undefined,
  platform: PlatformEntry | undefined,
  membership: Membership | undefined,
  ip: string,
) {
  const c = snap.catalogue;
  const group = membership?.group ? membership.experiment.groups[membership.group - 1] : undefined;
  return {
    matchedBy,
    build,
    experiment: membership
      ? { id: membership.experiment.id, group: membership.group, groupName: group?.groupName ?? null, isActive: membership.experiment.isActive }
      : null,
    whitelabel: whitelabel
      ? {
          name: whitelabel.name,
          feUrl: whitelabel.feUrl,
          imageHD: absolute(base, whitelabel.imageHD),
          imageFHD: absolute(base, whitelabel.imageFHD),
          cssConfig: absolute(base, whitelabel.cssConfig),
        }
      : null,
    platform: platform ? { name: platform.name } : null,
    localisation: (whitelabel && c.translations.get(whitelabel.id)) ?? null,
    config: (whitelabel && c.configs.get(whitelabel.id)) ?? null,
    techSupportUrl: (whitelabel && c.techSupport.get(whitelabel.id)) ?? null,
    ip,
  };
}

function fromBuild(base: string, build: BuildEntry, combination?: CombinationEntry): PublicBuild {
  const custom = combination?.customBuildUrls ?? [];
  return {
    name: build.name,
    version: build.version,
    resolution: build.resolution,
    urls: custom.length ? custom : build.urls.map((u) => absolute(base, u)!),
    forceLocalBuild: combination?.forceLocalBuild ?? false,
  };
}

/** An active experiment's group as the build: its files for this platform joined to its customUrl. */
function fromGroup(membership: Membership, platform: PlatformEntry): PublicBuild | undefined {
  const { experiment, group } = membership;
  if (!experiment.isActive || group === null) return undefined;
  const g = experiment.groups[group - 1];
  if (!g) return undefined;
  const files = g.files[platform.name] ?? [];
  if (!files.length && !g.customUrl) return undefined;
  const join = (file: string) => (g.customUrl ? `${g.customUrl.replace(/\/+$/, '')}/${file.replace(/^\/+/, '')}` : file);
  return {
    name: g.groupName ?? `experiment ${experiment.id} group ${group}`,
    version: null,
    resolution: null,
    urls: files.length ? files.map(join) : [g.customUrl!],
    customUrl: g.customUrl,
    forceLocalBuild: false,
  };
}

/** The newest available build within the platform's and the whitelabel's maxVersion (rule 5). */
function latestBuild(snap: Snapshot, whitelabel: WhitelabelEntry, platform: PlatformEntry, resolution: string | null, ip: string) {
  const key = keyOf(whitelabel.id, platform.id);
  const unpublished = snap.catalogue.unpublishedOnTest.get(key);
  const isTester = unpublished ? snap.testers.contains(ip) : false;
  return (snap.catalogue.latest.get(key) ?? []).find(
    (b) => (!resolution || b.resolution === resolution) && (!unpublished || isTester || !unpublished.has(b.versionKey)),
  );
}

function describe(input: LookupInput, ip: string): string {
  const parts = [
    input.whitelabel && `whitelabel ${input.whitelabel}`,
    input.platform && `platform ${input.platform.name}`,
    input.resolution && `resolution ${input.resolution}`,
    input.appInstallId && `device ${input.appInstallId}`,
    `IP ${ip}`,
  ];
  return parts.filter(Boolean).join(', ');
}

export async function lookupCombination({ engine, input, client, path }: ActionContext) {
  const state = lookups.get(engine);
  if (!state) throw new Error('combination.lookup needs registerDeviceLookup()');
  const query = input as LookupInput;
  // The hot path without a promise: the snapshot as it is, unless a change announced since asks for a reload first.
  const snap = state.store.fresh() ?? (await state.store.get());
  const c = snap.catalogue;
  // Never a host the request merely named (docs/device-api.md): PUBLIC_URL, a panel host, or paths of this server.
  const base = state.publicUrl ?? originOf(state, client?.origin);
  const ip = query.ipAddress ?? plainIpv4(client?.ip ?? '');

  const whitelabel = query.whitelabel ? c.whitelabelsByName.get(query.whitelabel) : undefined;
  if (query.whitelabel && !whitelabel) throw notFound(`No whitelabel named "${query.whitelabel}"`);
  const platform = query.platform ? c.platformsByName.get(query.platform.name) : undefined;
  if (query.platform && !platform) throw notFound(`No platform named "${query.platform.name}"`);

  // Rules 1 and 2: a combination for this device, then for this address; its whitelabel and platform, when set,
  // must be the caller's; one whose build has no files left and no custom URLs is passed over.
  const usable = (combination: CombinationEntry) => {
    if (whitelabel && combination.whitelabelId !== null && combination.whitelabelId !== whitelabel.id) return false;
    if (platform && combination.platformId !== null && combination.platformId !== platform.id) return false;
    const build = c.builds.get(combination.buildId);
    return !!build && (build.isAvailable || combination.customBuildUrls.length > 0);
  };
  const pinned = (matchedBy: MatchedBy, combination: CombinationEntry | undefined) => {
    if (!combination) return undefined;
    const wl = whitelabel ?? (combination.whitelabelId === null ? undefined : c.whitelabelsById.get(combination.whitelabelId));
    const pl = platform ?? (combination.platformId === null ? undefined : c.platformsById.get(combination.platformId));
    return answer(`${matchedBy}:${combination.id}`, snap, base, matchedBy, () => fromBuild(base, c.builds.get(combination.buildId)!, combination), wl, pl, undefined, ip);
  };
  const byDevice = query.appInstallId ? snap.combinations.byDevice.get(query.appInstallId)?.find(usable) : undefined;
  if (byDevice) return pinned('device', byDevice);
  const byIp = snap.combinations.byIp.get(ip)?.find(usable);
  if (byIp) return pinned('ip', byIp);

  if (!whitelabel || !platform) {
    throw notFound(`No combination for ${describe(query, ip)}; the other rules need both a whitelabel and a platform`);
  }

  // Rule 3: the A/B experiment whose collection holds the device, or which it joins now.
  const modelName = query.modelName ?? null;
  const candidates = (snap.experiments.byWhitelabel.get(whitelabel.id) ?? []).filter(
    (e) => e.platformIds.has(platform.id) && (e.modelNames.size === 0 || (modelName !== null && e.modelNames.has(modelName))),
  );
  const membership =
    query.appInstallId && candidates.length
      ? await experimentOf(
          engine,
          state.store,
          candidates,
          {
            appInstallId: query.appInstallId,
            modelName,
            version: query.version ?? null,
            userId: query.userId ?? null,
            whitelabel: whitelabel.name,
            platform: platform.name,
          },
          path ?? '',
        )
      : undefined;
  const grouped = membership && fromGroup(membership, platform);
  if (grouped) return answer('experiment', snap, base, 'experiment', () => grouped, whitelabel, platform, membership, ip);

  // Rule 4: the published combination of this whitelabel and platform.
  const published = snap.combinations.published.get(keyOf(whitelabel.id, platform.id))?.find(usable);
  if (published) {
    return answer(`published:${published.id}`, snap, base, 'published', () => fromBuild(base, c.builds.get(published.buildId)!, published), whitelabel, platform, membership, ip);
  }

  // Rule 5: the newest available build within the version limits; unpublished versions on test for testers only.
  const latest = latestBuild(snap, whitelabel, platform, query.resolution ?? null, ip);
  if (latest) return answer(`latest:${latest.id}`, snap, base, 'latest', () => fromBuild(base, latest), whitelabel, platform, membership, ip);

  throw notFound(
    `No build for ${describe(query, ip)}: no combination for the device or the IP, no A/B group with files, no published combination, and no available build within ${maxVersions(platform.maxVersion, whitelabel.maxVersion)}`,
  );
}

/** The version limits a 404 names, each labelled with whose it is (two bare versions read as a range). */
function maxVersions(platformMax: unknown, whitelabelMax: unknown): string {
  const limits = [
    platformMax ? `the platform's max version ${String(platformMax)}` : '',
    whitelabelMax ? `the whitelabel's max version ${String(whitelabelMax)}` : '',
  ].filter(Boolean);
  return limits.length ? limits.join(' and ') : 'any version (neither the platform nor the whitelabel sets a max version)';
}
