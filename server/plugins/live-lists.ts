// Live lists: every committed change of the change feed (a staff member's call, a device's report, a job, another
// process's write heard through the bridge) goes out on the live socket as an "entity changed" item, to the rooms
// of the roles that may list that entity (the roles of its manifests' list call) and to no one else, so an open
// list reloads and an open edit form of the record says who changed it. Items of one tick travel as one batch.
import type { Server } from 'socket.io';
import type { Manifest, Role } from '../../kernel/manifest/types.ts';
import type { Change } from '../crud/changes.ts';
import type { Engine } from '../crud/context.ts';

/** The socket event; its payload is an array of EntityChanged. */
export const ENTITY_CHANGED_EVENT = 'entityChanged';

export interface EntityChanged {
  entity: string;
  /** The records written, when the write named one; absent means "any record of the entity". */
  ids?: number[];
  /** The e-mail of the staff member who wrote; null for a device or a job. */
  by: string | null;
  at: string;
}

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

export function registerLiveLists(engine: Engine, io: Server): () => void {
  const audiences = listAudiences(engine.manifests);
  let queue = new Map<Role, EntityChanged[]>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batches = queue;
    queue = new Map();
    for (const [role, items] of batches) io.to(`role:${role}`).emit(ENTITY_CHANGED_EVENT, items);
  };
  return engine.changes.on((change: Change) => {
    // With the Redis adapter every process's sockets already hear the writing process's broadcast.
    if (change.remote && engine.live.everyProcess) return;
    const roles = audiences.get(change.entity);
    if (!roles?.length) return;
    const item: EntityChanged = { entity: change.entity, ids: change.ids, by: change.by ?? null, at: change.at ?? new Date().toISOString() };
    for (const role of roles) queue.set(role, [...(queue.get(role) ?? []), item]);
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  });
}
