import { createStore } from '../store';
import { mergeWlStatuses } from './wl-statuses';

export interface LiveItem {
  type: string;
  data: unknown;
}

export interface LiveState {
  connected: boolean;
  console: unknown[];
  buildsErrors: unknown;
  buildsStatuses: unknown;
  wlStatuses: unknown;
}

/** SPEC leaves the cap open; 500 lines keep the console readable and the memory flat. */
export const CONSOLE_CAP = 500;

const initial: LiveState = { connected: false, console: [], buildsErrors: [], buildsStatuses: [], wlStatuses: [] };

export const live = createStore<LiveState>(initial);

/** Applies one `dataQueue` batch: console lines append (capped), wlStatuses merge per whitelabel, the others replace their panel's data. */
export function applyBatch(state: LiveState, batch: unknown): LiveState {
  if (!Array.isArray(batch)) return state;
  let next = state;
  for (const raw of batch as LiveItem[]) {
    if (!raw || typeof raw !== 'object') continue;
    switch (raw.type) {
      case 'console': {
        const lines = Array.isArray(raw.data) ? raw.data : [raw.data];
        next = { ...next, console: [...next.console, ...lines].slice(-CONSOLE_CAP) };
        break;
      }
      case 'buildsErrors':
      case 'buildsStatuses':
        next = { ...next, [raw.type]: raw.data };
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
  on(event: string, fn: (...args: unknown[]) => void): unknown;
  disconnect(): unknown;
}

let socket: SocketLike | null = null;
let generation = 0;

/** Opens THE one socket for `token` (closing any previous one); socket.io-client loads on demand. */
export async function connectLive(baseUrl: string, token: string): Promise<void> {
  disconnectLive();
  const mine = ++generation;
  const { io } = await import('socket.io-client');
  if (mine !== generation) return;
  const s = io(baseUrl || undefined, { path: '/socket.io', auth: { token }, query: { token } });
  s.on('connect', () => live.set((st) => ({ ...st, connected: true })));
  s.on('disconnect', () => live.set((st) => ({ ...st, connected: false })));
  s.on('dataQueue', (batch: unknown) => live.set((st) => applyBatch(st, batch)));
  socket = s;
}

export function disconnectLive(): void {
  generation++;
  socket?.disconnect();
  socket = null;
  live.set(initial);
}
