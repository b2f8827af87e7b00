// @vitest-environment node
// A tab refused a live socket because its session has LIVE_SOCKETS_PER_SESSION open already asks again later, and
// gets live updates once another tab closed: socket.io itself never asks again after a refusal.
import { io, type Socket } from 'socket.io-client';
import { afterAll, expect, inject, it } from 'vitest';
import { connectLive, disconnectLive, live, liveRetry } from '../../src/core/live/live-store';
import { COMPONENT_ADMIN } from './server-setup';

const serverUrl = inject('serverUrl');
const others: Socket[] = [];

afterAll(() => {
  disconnectLive();
  for (const other of others) other.close();
});

async function freshSession(): Promise<string> {
  const answer = await fetch(`${serverUrl}/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(COMPONENT_ADMIN) });
  return ((await answer.json()) as { data: { token: string } }).data.token;
}

const until = async (done: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !done() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25));
  return done();
};

it('asks again for a socket refused at the session limit, and is live once another tab of the session closed', async () => {
  const token = await freshSession();
  // The session's other tabs: 20 sockets, the limit.
  for (let i = 0; i < 20; i++) others.push(io(serverUrl, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false }));
  expect(await until(() => others.every((o) => o.connected), 10_000)).toBe(true);
  liveRetry.refusedMs = 300;
  await connectLive(serverUrl, token);
  await new Promise((r) => setTimeout(r, 1000));
  expect(live.get().connected).toBe(false);
  others.pop()!.close();
  expect(await until(() => live.get().connected, 10_000)).toBe(true);
}, 30_000);
