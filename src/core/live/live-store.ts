// The one live socket of the panel and what it delivered: dataQueue items for the screens that follow them, and
// entity changes for the live lists, including those missed while it was not listening.
import { session } from '../session/session';
import { createStore } from '../store';
import { mergeBuildErrors, mergeWlStatuses, type WlErrors } from './wl-statuses';
import { receiveEntityChanges, resetEntityChanges } from './use-live-list';

export interface LiveItem {
  type: string;
  data: unknown;
}

export interface LiveState {
  connected: boolean;
  console: unknown[];
  /** The last build processing errors, per whitelabel: a reload for one whitelabel replaces only its own. */
  buildsErrors: WlErrors[];
  buildsStatuses: unknown;
  wlStatuses: unknown;
  /** The last `pipelines` item: a pipeline was run, deleted or changed status (server/gitlab/pipelines.ts). */
  pipelines: unknown;
  /** How many items of each type arrived, so a screen can react to every arrival (useLiveRefresh). */
  received: Record<string, number>;
}

/** SPEC leaves the cap open; 500 lines keep the console readable and the memory flat. */
export const CONSOLE_CAP = 500;

const initial: LiveState = { connected: false, console: [], buildsErrors: [], buildsStatuses: [], wlStatuses: [], pipelines: null, received: {} };

export const live = createStore<LiveState>(initial);

/** Applies one `dataQueue` batch: console lines append (capped), wlStatuses and buildsErrors merge per whitelabel, the others replace their panel's data. */
export function applyBatch(state: LiveState, batch: unknown): LiveState {
  if (!Array.isArray(batch)) return state;
  let next = state;
  for (const raw of batch as LiveItem[]) {
    if (!raw || typeof raw !== 'object') continue;
    if (typeof raw.type === 'string') next = { ...next, received: { ...next.received, [raw.type]: (next.received[raw.type] ?? 0) + 1 } };
    switch (raw.type) {
      case 'console': {
        const lines = Array.isArray(raw.data) ? raw.data : [raw.data];
        next = { ...next, console: [...next.console, ...lines].slice(-CONSOLE_CAP) };
        break;
      }
      case 'buildsErrors':
        next = { ...next, buildsErrors: mergeBuildErrors(next.buildsErrors, raw.data) };
        break;
      case 'buildsStatuses':
        next = { ...next, [raw.type]: raw.data };
        break;
      case 'pipelines':
        next = { ...next, pipelines: raw.data };
        break;
      case 'wlStatuses':
        next = { ...next, wlStatuses: mergeWlStatuses(next.wlStatuses, raw.data) };
        break;
      default:
        break;
    }
  }
  return next;
}

interface SocketLike {
  disconnect(): unknown;
}

/** How long a socket refused for its session's socket limit waits before it asks again. */
export const liveRetry = { refusedMs: 30_000 };

let socket: SocketLike | null = null;
let generation = 0;

// Since when (this page's clock) changes may have gone unheard: the session began (its lists are fetched after that),
// or the socket last heard the server before it dropped. Null while the socket listens. Each (re)connect tells the
// server how long ago that was, and the server announces what changed since (server/plugins/live-lists.ts).
let unheardSince: number | null = Date.now();
let heardAt = 0;
let sessionToken = session.get().token;
session.subscribe(() => {
  const { token } = session.get();
  if (token === sessionToken) return;
  sessionToken = token;
  unheardSince = Date.now();
});

/**
 * Opens THE one socket for `token` (closing any previous one); socket.io-client loads on demand. The token goes
 * in the handshake's auth payload, never in the URL, where proxies would log it. `onSessionEnded` runs when the
 * server cuts the socket because the session ended (logout elsewhere, password change, timeout).
 */
export async function connectLive(baseUrl: string, token: string, onSessionEnded?: () => void): Promise<void> {
  disconnectLive();
  const mine = ++generation;
  const { io } = await import('socket.io-client');
  if (mine !== generation) return;
  const s = io(baseUrl || undefined, {
    path: '/socket.io',
    auth: (send) => send({ token, missedMs: unheardSince === null ? 0 : Math.max(0, Date.now() - unheardSince) }),
  });
  const heard = () => (heardAt = Date.now());
  if (onSessionEnded) s.on('sessionEnded', onSessionEnded);
  s.on('connect', () => {
    unheardSince = null;
    heard();
    live.set((st) => ({ ...st, connected: true }));
  });
  // A dropped network is noticed only at the next missed ping: what was sent after the last packet heard may be lost.
  s.io.on('ping', heard);
  s.onAny(heard);
  s.on('disconnect', () => {
    unheardSince = heardAt;
    live.set((st) => ({ ...st, connected: false }));
  });
  // A session with LIVE_SOCKETS_PER_SESSION sockets open already refuses this one, and socket.io does not ask again
  // after a refusal: ask again later, when another tab may have closed (otherwise this tab has no live updates).
  s.on('connect_error', (error: Error & { data?: { code?: string } }) => {
    if (error.data?.code !== 'ERR_RATE_LIMIT' || s.active) return;
    setTimeout(() => {
      if (socket === s) s.connect();
    }, liveRetry.refusedMs);
  });
  s.on('dataQueue', (batch: unknown) => live.set((st) => applyBatch(st, batch)));
  s.on('entityChanged', receiveEntityChanges);
  socket = s;
}

export function disconnectLive(): void {
  generation++;
  socket?.disconnect();
  socket = null;
  live.set(initial);
  resetEntityChanges();
}
