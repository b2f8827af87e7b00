// Device traffic as a TV fleet sends it (issue 34): many distinct devices, each from its own address (the server
// behind a proxy it trusts reads the address from X-Forwarded-For), a share of them starting for the first time and
// joining an A/B collection. The load runs in a process of its own over raw keep-alive sockets, with each request's
// bytes written in advance: a Node http client per call cost as much CPU as the server's answer, and on two cores
// that hid what the server itself costs. Only to 127.0.0.1, bounded by its duration.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { runLoadProcess } from './load-process.ts';

/** One request of the mix: its path and the device's address; `{n}` in the path becomes a never-sent device id. */
export interface DeviceRequest {
  path: string;
  address: string;
  /** GET unless given; a body is sent as JSON (`{n}` in it, as in the path, becomes a never-sent device id). */
  method?: string;
  body?: string;
}

export interface TrafficFigures {
  count: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers other than 200, by status. */
  statuses: Record<string, number>;
  /** First calls sent (each a new device id). */
  fresh: number;
  /** Staff list calls answered during the run, and their latencies. */
  admin: number;
  adminP50?: number;
  adminP99?: number;
  seconds: number;
}

const LOADER = `
const net = require('node:net');
const http = require('node:http');
const fs = require('node:fs');
const { port, ports, connections, durationMs, file, freshPrefix, admin, maxRequests, ratePerSecond } = JSON.parse(process.env.LOAD);
const requests = JSON.parse(fs.readFileSync(file, 'utf8'));
const head = (r, n) => {
  const body = r.body === undefined ? '' : r.body.replace('{n}', n);
  return (r.method ?? 'GET') + ' ' + r.path.replace('{n}', n) + ' HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n' + (r.address ? 'X-Forwarded-For: ' + r.address + '\\r\\n' : '') +
    (r.body === undefined ? '' : 'Content-Type: application/json\\r\\nContent-Length: ' + Buffer.byteLength(body) + '\\r\\n') + '\\r\\n' + body;
};
const isFresh = (r) => r.path.includes('{n}') || (r.body ?? '').includes('{n}');
const fixed = requests.map((r) => (isFresh(r) ? null : Buffer.from(head(r, ''))));
let fresh = 0;
const bytesOf = (i) => fixed[i] ?? Buffer.from(head(requests[i], freshPrefix + (fresh++)));
const begin = Date.now();
const until = Date.now() + durationMs;
const times = [];
const statuses = {};
let next = 0, sent = 0;
let connected = 0;
const client = () => new Promise((resolve) => {
  const socket = net.connect((ports ?? [port])[connected++ % (ports ?? [port]).length], '127.0.0.1');
  socket.setNoDelay(true);
  let buffer = Buffer.alloc(0), started = 0;
  const send = () => {
    if (Date.now() >= until || sent >= maxRequests) { socket.end(); return resolve(); }
    // Paced: request k goes at begin + k / rate (a connection that is early waits for its turn).
    if (ratePerSecond) {
      const due = begin + (sent * 1000) / ratePerSecond;
      if (due >= until) { socket.end(); return resolve(); }
      if (due > Date.now() + 1) { sent++; return setTimeout(go, due - Date.now()); }
    }
    sent++;
    go();
  };
  const go = () => {
    const bytes = bytesOf(next++ % requests.length);
    started = performance.now();
    socket.write(bytes);
  };
  socket.on('connect', send);
  socket.on('error', () => resolve());
  socket.on('close', () => resolve());
  socket.on('data', (chunk) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    const end = buffer.indexOf('\\r\\n\\r\\n');
    if (end < 0) return;
    const header = buffer.toString('latin1', 0, end);
    const length = /content-length: *(\\d+)/i.exec(header);
    let total;
    if (length) total = end + 4 + Number(length[1]);
    else { const z = buffer.indexOf('\\r\\n0\\r\\n\\r\\n', end); if (z < 0) return; total = z + 7; }
    if (buffer.length < total) return;
    buffer = buffer.subarray(total);
    times.push(performance.now() - started);
    const status = header.slice(9, 12);
    if (status !== '200') statuses[status] = (statuses[status] ?? 0) + 1;
    send();
  });
});
const agent = new http.Agent({ keepAlive: true, maxSockets: admin.length || 1 });
const adminTimes = [];
const adminLoop = ({ path, token }) => new Promise((resolve) => {
  const one = () => {
    if (Date.now() >= until) return resolve();
    const t = performance.now();
    http.get('http://127.0.0.1:' + port + path, { agent, headers: { authorization: token } }, (res) => {
      res.resume();
      res.on('end', () => { adminTimes.push(performance.now() - t); one(); });
    }).on('error', () => resolve());
  };
  one();
});
const begun = performance.now();
Promise.all([...Array.from({ length: connections }, client), ...admin.map(adminLoop)]).then(() => {
  const seconds = (performance.now() - begun) / 1000;
  const at = (list, q) => list[Math.min(list.length - 1, Math.floor(list.length * q))];
  times.sort((a, b) => a - b);
  adminTimes.sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({ count: times.length, rps: times.length / seconds, p50: at(times, 0.5), p99: at(times, 0.99), statuses, fresh, admin: adminTimes.length, adminP50: at(adminTimes, 0.5), adminP99: at(adminTimes, 0.99), seconds }));
  agent.destroy();
});
`;

export interface TrafficOptions {
  connections?: number;
  durationMs?: number;
  /** Staff loops running beside the devices, each a list call after the other. */
  admin?: { path: string; token: string }[];
  /** At most this many device requests in all (the run ends at whichever comes first). */
  maxRequests?: number;
  /** What makes this run's new device ids unique. */
  freshPrefix?: string;
  /** Sent at this pace instead of as fast as answered. */
  ratePerSecond?: number;
  /** The connections spread over these ports (a load balancer's round robin); `port` alone when absent. */
  ports?: number[];
}

let runs = 0;

/** Sends `requests` round robin over `connections` keep-alive sockets to 127.0.0.1:port for the duration. */
export async function sendTraffic(port: number, requests: DeviceRequest[], options: TrafficOptions = {}): Promise<TrafficFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-traffic-'));
  try {
    const file = join(dir, 'requests.json');
    writeFileSync(file, JSON.stringify(requests));
    return await runLoadProcess<TrafficFigures>(LOADER, {
      port,
      connections: options.connections ?? 10,
      durationMs: options.durationMs ?? 3000,
      file,
      freshPrefix: options.freshPrefix ?? `new-${process.pid}-${Date.now()}-${runs++}-`,
      admin: options.admin ?? [],
      maxRequests: options.maxRequests ?? Number.MAX_SAFE_INTEGER,
      ratePerSecond: options.ratePerSecond,
      ports: options.ports,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The port a listening Fastify server took. */
export const portOf = (app: FastifyInstance) => (app.server.address() as { port: number }).port;

const q = (params: Record<string, string>) => `/v1/combination/get?${new URLSearchParams(params)}`.replace('%7Bn%7D', '{n}');
const platformParam = (name: string) => JSON.stringify({ name });
const WHITELABELS = ['aurora', 'nordtv', 'kinomax'];
const PLATFORMS = ['tizen', 'webos', 'androidtv', 'vidaa', 'titan'];

/** Where the fleet's first calls collect: the experiment seedCollecting() adds (kinomax on vidaa). */
export const COLLECTING = { whitelabel: 'kinomax', platform: 'vidaa' };

/**
 * The requests of `devices` distinct TVs over the rows bench/lookup.ts seed() wrote (plus seedCollecting()), each from
 * its own address: a tenth first calls (a new device id each time, joining the collection), a tenth members of the
 * experiment (with the default `firstCallShare`), a twentieth pinned by device id and one by address, the rest on their whitelabel's published or
 * latest build.
 */
export function deviceMix(devices = 10_000, firstCallShare = 0.1): DeviceRequest[] {
  const out: DeviceRequest[] = [];
  for (let i = 0; i < devices; i++) {
    const address = `100.${64 + ((i >> 16) & 63)}.${(i >> 8) & 255}.${i & 255}`;
    const slot = i % 20;
    if ((i % 100) < firstCallShare * 100) {
      out.push({ path: q({ whitelabel: COLLECTING.whitelabel, platform: platformParam(COLLECTING.platform), appInstallId: '{n}', modelName: 'UE55', version: '1.20.3' }), address });
    } else if (slot < 4) {
      out.push({ path: q({ whitelabel: 'nordtv', platform: platformParam('webos'), appInstallId: `member-${i % 10_000}` }), address });
    } else if (slot === 4) {
      const k = i % 1000;
      out.push({ path: q({ whitelabel: WHITELABELS[k % 3], platform: platformParam(PLATFORMS[k % 5]), appInstallId: `pinned-${k}` }), address });
    } else if (slot === 5) {
      const k = 1000 + (i % 1000);
      out.push({ path: q({ whitelabel: WHITELABELS[k % 3], platform: platformParam(PLATFORMS[k % 5]), appInstallId: `tv-${i}` }), address: `10.1.${(k >> 8) & 255}.${k & 255}` });
    } else if (slot < 13) {
      out.push({ path: q({ whitelabel: 'aurora', platform: platformParam('tizen'), appInstallId: `tv-${i}` }), address });
    } else {
      const wl = WHITELABELS[i % 3];
      const pl = ['androidtv', 'titan', 'tizen'][i % 3 === 0 ? 0 : (i >> 1) % 3];
      out.push({ path: q({ whitelabel: wl, platform: platformParam(pl === 'tizen' && wl === 'aurora' ? 'titan' : pl), appInstallId: `tv-${i}`, ...(i % 2 ? { resolution: '1080p' } : {}) }), address });
    }
  }
  return out;
}

/** The experiment the first calls join: collecting, room for millions, two groups with files for the platform. */
export async function seedCollecting(app: FastifyInstance, recordsCount = 100_000_000): Promise<void> {
  const { db, caps } = app.engine;
  const wl = await db.selectFrom('whitelabels').select('id').where('name', '=', COLLECTING.whitelabel).executeTakeFirstOrThrow();
  const pl = await db.selectFrom('platforms').select('id').where('name', '=', COLLECTING.platform).executeTakeFirstOrThrow();
  const group = (name: string) => ({ count: recordsCount / 2, groupName: name, customUrl: `https://cdn.example.com/${name}/`, files: { [COLLECTING.platform]: [`${name}.js`] } });
  await db
    .insertInto('experiments')
    .values({
      whitelabelId: wl.id,
      platformIds: JSON.stringify([pl.id]),
      modelNames: '[]',
      recordsCount,
      isActive: caps.toDbBoolean(true),
      isCollecting: caps.toDbBoolean(true),
      isRandomSaveEnable: caps.toDbBoolean(false),
      probability: 1,
      versionsDeploymentSettings: JSON.stringify([group('C'), group('D')]),
      createdAt: new Date().toISOString(),
    })
    .execute();
}
