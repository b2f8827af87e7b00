// The longest event-loop stall of a large JSON body (issue 14: parsing a 51 MiB body held the loop 1.4 s): a body of
// --mib MiB (an array of small objects, as the IP import sends) is posted to a route that only parses it, over real
// HTTP, while a 1 ms timer records the longest gap between its runs; then a body of the same size to the one route of
// the server that takes one (the IP import, which reads it on a worker and stores its entries); then the first text
// through one JSON.parse; then the IP import's own body of a million entries (37 MiB) through JSON.parse alone and
// after the check of its nesting and repeated keys (server/json-shape.ts), in alternating rounds.
//   npm run bench -- json-body [--mib 51]
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ADMIN, startApp } from '../tests/server/harness.ts';
import { MAX_JSON_DEPTH, scanJsonShape } from '../server/json-shape.ts';
import { option } from './options.ts';

setFlagsFromString('--expose-gc');
/** A full collection, so that garbage left by building a body is not collected while the next step is measured. */
const collectGarbage = runInNewContext('gc') as () => void;

/** The longest gap between runs of a 1 ms timer while `work` runs, in ms. */
async function longestStall(work: () => Promise<unknown>): Promise<{ stall: number; ms: number }> {
  collectGarbage();
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  // A synchronous block shows only when the timer runs again after it.
  await new Promise((resolve) => setTimeout(resolve, 5));
  histogram.disable();
  clearInterval(timer);
  return { stall: Math.max(stall, histogram.max / 1e6), ms };
}

export interface JsonBodyFigures {
  mib: number;
  /** The server's longest event-loop stall while it received and parsed the body, and the whole request's time. */
  sliced: { stall: number; ms: number };
  /** The same text through one JSON.parse, in this process: what the stall was before. */
  once: { stall: number; ms: number };
  /** A body of the same size to the IP import, the one route that takes one (read on a worker). */
  imported: { stall: number; ms: number };
  /** Nothing posted: the machine's own noise over the same time. */
  idle: { stall: number; ms: number };
  /** The IP import's body of a million entries: median ms of JSON.parse alone and of the shape check and JSON.parse. */
  shape: { mib: number; parseMs: number; checkedMs: number };
}

/** Medians of JSON.parse alone and of scanJsonShape then JSON.parse, on the IP import's body, in alternating rounds. */
function shapeCheckCost(rounds = 7): JsonBodyFigures['shape'] {
  const ips = Array.from({ length: 1_000_000 }, (_, i) => ({ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}${i % 3 ? '' : '/32'}`, vendor: i % 2 ? 'lg' : 'samsung' }));
  const text = JSON.stringify({ ips });
  ips.length = 0;
  const parse: number[] = [];
  const checked: number[] = [];
  const time = (work: () => unknown) => {
    collectGarbage();
    const start = performance.now();
    work();
    return performance.now() - start;
  };
  for (let round = 0; round < rounds; round++) {
    parse.push(time(() => JSON.parse(text)));
    checked.push(time(() => scanJsonShape(text, MAX_JSON_DEPTH) ?? JSON.parse(text)));
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return { mib: Buffer.byteLength(text) / 1024 / 1024, parseMs: median(parse), checkedMs: median(checked) };
}

export async function jsonBody(): Promise<JsonBodyFigures> {
  const mib = Number(option('mib', '51'));
  const item = (i: number) => ({ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32`, description: `office ${i % 97}`, whitelabelId: (i % 3) + 1 });
  const items: unknown[] = [];
  let text = '';
  for (let i = 0, size = 2; size < mib * 1024 * 1024; i++) {
    items.push(item(i));
    size += JSON.stringify(item(i)).length + 1;
  }
  text = JSON.stringify({ ips: items });
  // The server's heap alone, as in a server of its own: the client's objects would lengthen its collector's pauses.
  items.length = 0;
  const { app, cleanup } = await startApp('sqlite');
  try {
    let parsed = 0;
    app.post('/bench/json-body', { bodyLimit: 256 * 1024 * 1024 }, async (req) => {
      parsed = ((req.body as { ips: unknown[] }).ips ?? []).length;
      return { result: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const body = Buffer.from(text);
    const post = (path: string, bytes: Buffer, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path, method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': bytes.length } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject);
        req.end(bytes);
      });
    // The machine's own noise: the longest gap of the timer while nothing is posted, for as long as the sliced parse.
    const sliced = await longestStall(() => post('/bench/json-body', body));
    const idle = await longestStall(() => new Promise((resolve) => setTimeout(resolve, sliced.ms)));
    // The import's own entries, as many as it takes (a million at most), spaced out to the same size.
    const entries = Math.min(1_000_000, Math.floor(body.length / 40));
    const width = Math.floor(body.length / entries) - 1;
    const entry = (i: number) => `{"ip":"10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}","vendor":"lg"}`.padEnd(width, ' ');
    const importBody = Buffer.from(`{"ips":[${Array.from({ length: entries }, (_, i) => entry(i)).join(',')}]}`);
    const login = await app.inject({ method: 'POST', url: '/v1/user/login', payload: ADMIN });
    let status = 0;
    const imported = await longestStall(async () => (status = await post('/v1/admin/testersIP/addArray', importBody, { authorization: login.json().data.token })));
    const once = await longestStall(async () => JSON.parse(text));
    console.log(`\nJSON body of ${(body.length / 1024 / 1024).toFixed(1)} MiB (${parsed.toLocaleString('en')} items) posted over HTTP`);
    console.log(`server, sliced parser:  ${sliced.ms.toFixed(0).padStart(6)} ms in all, longest event-loop stall ${sliced.stall.toFixed(0).padStart(5)} ms`);
    console.log(
      `server, IP import:      ${imported.ms.toFixed(0).padStart(6)} ms in all, longest event-loop stall ${imported.stall.toFixed(0).padStart(5)} ms ` +
        `(${(importBody.length / 1024 / 1024).toFixed(1)} MiB, ${entries.toLocaleString('en')} entries read on a worker and stored: ${status})`,
    );
    console.log(`nothing posted (noise): ${idle.ms.toFixed(0).padStart(6)} ms in all, longest event-loop stall ${idle.stall.toFixed(0).padStart(5)} ms`);
    console.log(`one JSON.parse of it:   ${once.ms.toFixed(0).padStart(6)} ms in all, longest event-loop stall ${once.stall.toFixed(0).padStart(5)} ms`);
    const shape = shapeCheckCost();
    console.log(
      `IP import body (${shape.mib.toFixed(1)} MiB): JSON.parse ${shape.parseMs.toFixed(0)} ms, nesting and repeated keys checked then JSON.parse ` +
        `${shape.checkedMs.toFixed(0)} ms (x${(shape.checkedMs / shape.parseMs).toFixed(2)}; medians of 7 alternating rounds)`,
    );
    return { mib: body.length / 1024 / 1024, sliced, once, imported, idle, shape };
  } finally {
    await app.close();
    await cleanup();
  }
}
