// Live lists: every committed change of the change feed (a staff member's call, a device's report, a job, another
// process's write heard through the bridge) goes out on the live socket as an "entity changed" item, to the rooms
// of the roles that may list that entity (the roles of its manifests' list call) and to no one else, so an open
// list reloads and an open edit form of the record says who changed it. Items of one tick travel as one batch.
// A socket that was not listening for a while (it connects after the panel fetched its first rows, or comes back
// after a network drop or a server restart) says so in its handshake (`missedMs`), and hears at once what it missed.
import type { Server, Socket } from 'socket.io';
import type { Manifest, Role } from '../../kernel/manifest/types.ts';
import type { Change } from '../core/changes.ts';
import type { Engine } from '../core/context.ts';

/** The socket event; its payload is an array of EntityChanged. */
export const ENTITY_CHANGED_EVENT = 'entityChanged';

export interface EntityChanged {
  entity: string;
  /** The records written, when the write named one; absent means "any record of the entity". */
  ids?: number[];
  /** The e-mail of the staff member who wrote; null for a device or a job. */
  by: string | null;
  at: string;
  /** Set on what a socket hears at connect: a change made while it was not listening. */
  missed?: true;
}

/**
 * How much earlier than its `missedMs` says a socket's missed changes are looked for: the handshake's travel and a
 * busy event loop put the server's reading of "that long ago" late, and a change announced twice only reloads twice.
 */
export const MISSED_SLACK_MS = 1000;

/** The changes remembered per entity: when more happened since a socket's marker, it hears "any record changed". */
export const REMEMBERED_PER_ENTITY = 20;

/**
 * Which roles may list each entity: the union of the roles of the list calls its manifests declare.
 * @example listAudiences(manifests).get('user') // ['admin']
 */
export function listAudiences(manifests: Manifest[]): Map<string, Role[]> {
  const out = new Map<string, Set<Role>>();
  for (const m of manifests) {
    for (const action of Object.values(m.actions ?? {})) {
      if (action.kind !== 'list') continue;
      const roles = out.get(m.entity) ?? new Set<Role>();
      for (const role of action.roles) roles.add(role);
      out.set(m.entity, roles);
    }
  }
  return new Map([...out].map(([entity, roles]) => [entity, [...roles]]));
}

/**
 * The last changes of each entity this process heard (its own writes and, through the bridge, every other
 * process's), stamped with when it heard them: what a socket that comes back missed. It covers the time since it
 * was made; before that (a restart) it cannot tell, and answers that anything may have changed.
 * @example const log = createChangeLog(); log.record(item); log.since(Date.now() - 5000, ['platform'])
 */
export function createChangeLog(now: () => number = Date.now) {
  const startedAt = now();
  const byEntity = new Map<string, { kept: { item: EntityChanged; heardAt: number }[]; droppedAt: number }>();
  return {
    record(item: EntityChanged): void {
      const entry = byEntity.get(item.entity) ?? { kept: [], droppedAt: Number.NEGATIVE_INFINITY };
      entry.kept.push({ item, heardAt: now() });
      if (entry.kept.length > REMEMBERED_PER_ENTITY) entry.droppedAt = entry.kept.shift()!.heardAt;
      byEntity.set(item.entity, entry);
    },
    /** The changes of `entities` heard at or after `from`, one "any record" item for an entity whose changes since then are not all kept. */
    since(from: number, entities: readonly string[]): EntityChanged[] {
      const at = new Date(now()).toISOString();
      if (from < startedAt) return entities.map((entity) => ({ entity, by: null, at }));
      const out: EntityChanged[] = [];
      for (const entity of entities) {
        const entry = byEntity.get(entity);
        const missed = entry?.kept.filter((k) => k.heardAt >= from).map((k) => k.item) ?? [];
        if (entry && entry.droppedAt >= from) out.push({ entity, by: null, at: missed[missed.length - 1].at });
        else out.push(...missed);
      }
      return out;
    },
  };
}

/** How long a socket's handshake says its page may have missed changes; undefined when it says nothing usable. */
function missedMsOf(auth: unknown): number | undefined {
  const value = (auth as { missedMs?: unknown } | undefined)?.missedMs;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function registerLiveLists(engine: Pick<Engine, 'manifests' | 'changes' | 'live'>, io: Server): () => void {
  const audiences = listAudiences(engine.manifests);
  const listedBy = new Map<Role, string[]>();
  for (const [entity, roles] of audiences) for (const role of roles) listedBy.set(role, [...(listedBy.get(role) ?? []), entity]);
  const log = createChangeLog();
  let queue = new Map<Role, EntityChanged[]>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batches = queue;
    queue = new Map();
    for (const [role, items] of batches) io.to(`role:${role}`).emit(ENTITY_CHANGED_EVENT, items);
  };

  // The socket has joined its role's room (server/plugins/live.ts) before this runs: from here on it hears every
  // change live, and the ones since its marker (taken when the handshake arrived, before the session check) now.
  const replay = (socket: Socket) => {
    const missedMs = missedMsOf(socket.handshake.auth);
    if (missedMs === undefined) return;
    const items = log.since(socket.handshake.issued - missedMs - MISSED_SLACK_MS, listedBy.get(socket.data.user.role) ?? []);
    if (items.length) socket.emit(ENTITY_CHANGED_EVENT, items.map((item) => ({ ...item, missed: true })));
  };
  io.on('connection', replay);

  const stopFeed = engine.changes.on((change: Change) => {
    const roles = audiences.get(change.entity);
    if (!roles?.length) return;
    const item: EntityChanged = { entity: change.entity, ids: change.ids, by: change.by ?? null, at: change.at ?? new Date().toISOString() };
    log.record(item);
    // With the Redis adapter every process's sockets already hear the writing process's broadcast.
    if (change.remote && engine.live.everyProcess) return;
    for (const role of roles) queue.set(role, [...(queue.get(role) ?? []), item]);
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  });
  return () => {
    stopFeed();
    io.off('connection', replay);
  };
}
