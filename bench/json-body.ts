// The longest event-loop stall of a large JSON body (issue 14: parsing a 51 MiB body held the loop 1.4 s): a body of
// --mib MiB (an array of small objects, as the IP import sends) is posted to a route that only parses it, over real
// HTTP, while a 1 ms timer records the longest gap between its runs; then the same text through one JSON.parse.
//   npm run bench -- json-body [--mib 51]
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { request } from 'node:http';
import { startApp } from '../tests/server/harness.ts';
import { option } from './options.ts';

/** The longest gap between runs of a 1 ms timer while `work` runs, in ms. */
async function longestStall(work: () => Promise<unknown>): Promise<{ stall: number; ms: number }> {
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
    const post = () =>
      new Promise<number>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: '/bench/json-body', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject);
        req.end(body);
      });
    const sliced = await longestStall(post);
    const once = await longestStall(async () => JSON.parse(text));
    console.log(`\nJSON body of ${(body.length / 1024 / 1024).toFixed(1)} MiB (${parsed.toLocaleString('en')} items) posted over HTTP`);
    console.log(`server, sliced parser:  ${sliced.ms.toFixed(0).padStart(6)} ms in all, longest event-loop stall ${sliced.stall.toFixed(0).padStart(5)} ms`);
    console.log(`one JSON.parse of it:   ${once.ms.toFixed(0).padStart(6)} ms in all, longest event-loop stall ${once.stall.toFixed(0).padStart(5)} ms`);
    return { mib: body.length / 1024 / 1024, sliced, once };
  } finally {
    await app.close();
    await cleanup();
  }
}
