// The live hub: server code calls emit(type, data); items are batched per tick and handed to the socket layer,
// which sends each role only the item types the manifests' `live` declarations give it. It also carries the
// end of a session (logout, password change, account deleted) to the sockets that session opened.
import type { Manifest, Role } from '../../kernel/manifest/types.ts';

export interface LiveItem {
  type: string;
  data: unknown;
}

/** The sessions to end: one token's, or every session of an account. */
export type SessionSelector = { tokenHash: string } | { userId: number };

/** What the hub drives: the socket.io server (server/plugins/live.ts). */
export interface LiveSink {
  send(items: LiveItem[]): void;
  endSessions(which: SessionSelector): void;
  /** True when what it sends reaches the sockets of every server process (REDIS_URL), not this one's only. */
  everyProcess?: boolean;
}

export interface LiveHub {
  /** Queues one item; a type no manifest declares under `live` is a programming error and throws. */
  emit(type: string, data: unknown): void;
  /** Connects the hub to the socket layer; until then items are dropped. */
  attach(sink: LiveSink): void;
  /** Disconnects the live sockets of ended sessions at once (call it after the revoking write committed). */
  endSessions(which: SessionSelector): void;
  /** Which roles receive each declared item type. */
  readonly audiences: ReadonlyMap<string, readonly Role[]>;
  /** True when an emitted item reaches every process's sockets, so a change another process made is its to announce. */
  readonly everyProcess: boolean;
}

/**
 * The item types every manifest declares under `live`, with the roles that receive them.
 * @example liveAudiences([dashboard]) // Map { 'console' => ['admin', 'developer'], ... }
 */
export function liveAudiences(manifests: Manifest[]): Map<string, Role[]> {
  const audiences = new Map<string, Role[]>();
  const declaredBy = new Map<string, string>();
  for (const m of manifests) {
    for (const [type, decl] of Object.entries(m.live ?? {})) {
      if (declaredBy.has(type)) throw new Error(`${m.entity}.live.${type}: the live item type is also declared by ${declaredBy.get(type)}`);
      declaredBy.set(type, m.entity);
      audiences.set(type, decl.roles);
    }
  }
  return audiences;
}

export function createLiveHub(audiences: Map<string, Role[]>): LiveHub {
  let queue: LiveItem[] = [];
  let sink: LiveSink | undefined;
  let scheduled = false;
  return {
    audiences,
    get everyProcess() {
      return !!sink?.everyProcess;
    },
    emit(type, data) {
      if (!audiences.has(type)) throw new Error(`live item type "${type}" is declared by no manifest (add it under "live" with the roles that receive it)`);
      if (!sink) return;
      queue.push({ type, data });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        const items = queue;
        queue = [];
        sink?.send(items);
      });
    },
    attach(next) {
      sink = next;
    },
    endSessions(which) {
      sink?.endSessions(which);
    },
  };
}
