// A flood of anonymous wrong logins (issue 32): staff list calls and /healthz alone, then during 1,000 wrong logins
// from rotating addresses (X-Forwarded-For through a trusted proxy) against the admin, a regular user and accounts
// that do not exist; on SQLite and on PostgreSQL. Prints each one's throughput and p99 during the flood against
// alone (the goal: >= 0.7x and <= 3x), the flood's answers by status (the goal: no 503), and whether the real users
// got in: the admin and a regular user from their known addresses, and a first-time login that honours Retry-After.
//   npm run bench -- floods [--logins 1000] [--seconds 5] [--rounds 3] [--dialect sqlite|postgres]
// The load comes from another process with keep-alive connections; the server runs in this one.
import { ADMIN, startApp, type Dialect } from '../tests/server/harness.ts';
import { option } from './options.ts';
import { runLoadProcess } from './load-process.ts';

const STAFF_LOOPS = 4;
const HEALTH_LOOPS = 4;
const REGULAR = { email: 'regular@bench.io', password: 'regular-password-1', address: '10.40.9.9' };
const NEWCOMER = { email: 'newcomer@bench.io', password: 'newcomer-password-1', address: '10.60.0.1' };

interface Series {
  count: number;
  rps: number;
  p99: number;
  max: number;
  bad: number;
}

interface Phase {
  staff: Series;
  health: Series;
  flood?: { statuses: Record<string, number>; ms: number };
  real?: Record<string, { status: number; tries: number; ms: number }>;
}

/** One phase, run as a separate node process: staff and /healthz loops for `seconds`, and as long as the flood's answers take. */
const LOADER = `
const http = require('node:http');
const { base, token, seconds, logins, round, staffLoops, healthLoops, admin, regular, newcomer } = JSON.parse(process.env.LOAD);
const agent = new http.Agent({ keepAlive: true, maxSockets: staffLoops + healthLoops + logins + 3 });
const request = (method, path, headers, body) => new Promise((resolve) => {
  const req = http.request(base + path, { method, agent, headers }, (res) => { res.resume(); res.on('end', () => resolve({ status: res.statusCode, retryAfter: Number(res.headers['retry-after'] ?? 1) })); });
  req.on('error', () => resolve({ status: 0, retryAfter: 1 }));
  req.end(body);
});
const login = (email, password, address) => {
  const headers = { 'content-type': 'application/json' };
  if (address) headers['x-forwarded-for'] = address;
  return request('POST', '/v1/user/login', headers, JSON.stringify({ email, password }));
};
let done = false;
const series = () => ({ times: [], bad: 0 });
const staff = series(), health = series();
const loop = async (s, path, headers) => {
  while (!done) { const t = performance.now(); const r = await request('GET', path, headers); s.times.push(performance.now() - t); if (r.status !== 200) s.bad++; }
};
const sum = (s, ms) => { s.times.sort((a, b) => a - b); return { count: s.times.length, rps: s.times.length / (ms / 1000), p99: s.times[Math.floor(s.times.length * 0.99)] ?? 0, max: s.times[s.times.length - 1] ?? 0, bad: s.bad }; };
const statuses = {};
// Open loop, like an attacker who does not wait for answers: login i leaves at i/logins of the window.
const guess = async (i) => {
  await new Promise((ok) => setTimeout(ok, (i * seconds * 1000) / logins));
  const email = i % 3 === 0 ? admin.email : i % 3 === 1 ? regular.email : 'nobody' + round + '-' + i + '@bench.io';
  const r = await login(email, 'guess-' + i, '10.' + (50 + round) + '.' + (i >> 8) + '.' + (i & 255));
  statuses[r.status] = (statuses[r.status] ?? 0) + 1;
};
newcomer.address = '10.60.0.' + (round + 1);
const real = async (who) => {
  const t = performance.now();
  let r = await login(who.email, who.password, who.address), tries = 1;
  while (r.status === 429 && tries < 30) { await new Promise((ok) => setTimeout(ok, r.retryAfter * 1000)); r = await login(who.email, who.password, who.address); tries++; }
  return { status: r.status, tries, ms: performance.now() - t };
};
const started = performance.now();
const loops = [...Array.from({ length: staffLoops }, () => loop(staff, '/v1/admin/user/get?page=1&pageSize=20', { authorization: token })), ...Array.from({ length: healthLoops }, () => loop(health, '/healthz', {}))];
(async () => {
  let flood, realUsers;
  if (logins) {
    const guessing = Promise.all(Array.from({ length: logins }, (_, i) => guess(i)));
    await new Promise((ok) => setTimeout(ok, (seconds * 1000) / 3));
    const [a, r, n] = await Promise.all([real(admin), real(regular), real(newcomer)]);
    await guessing;
    flood = { statuses, ms: performance.now() - started };
    await new Promise((ok) => setTimeout(ok, Math.max(0, started + seconds * 1000 - performance.now())));
    realUsers = { 'admin, known address': a, 'regular user, known address': r, 'first-time login': n };
  } else await new Promise((ok) => setTimeout(ok, seconds * 1000));
  done = true;
  await Promise.all(loops);
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ staff: sum(staff, ms), health: sum(health, ms), flood, real: realUsers }));
  agent.destroy();
})();
`;

const phase = (load: Record<string, unknown>) => runLoadProcess<Phase>(LOADER, load);

async function run(dialect: Dialect, logins: number, seconds: number, roundCount: number): Promise<void> {
  const { app, cleanup } = await startApp(dialect, { config: { trustedProxies: ['127.0.0.1'] } });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return (await res.json()) as { data: { token: string } };
    };
    const token = (await post('/v1/user/login', ADMIN)).data.token;
    for (const user of [REGULAR, NEWCOMER]) {
      const query = new URLSearchParams({ email: user.email, password: user.password, role: 'developer' });
      await fetch(`${base}/v1/admin/user/add?${query}`, { headers: { authorization: token } });
    }
    // The regular user's address becomes known to the account; the newcomer's never logged in.
    await post('/v1/user/login', { email: REGULAR.email, password: REGULAR.password }, { 'x-forwarded-for': REGULAR.address });
    const common = { base, token, staffLoops: STAFF_LOOPS, healthLoops: HEALTH_LOOPS, admin: { ...ADMIN, address: '' }, regular: REGULAR, newcomer: NEWCOMER };
    // Alone and flooded in turns, each round on a fresh set of addresses: the shared machine's drift hits both alike.
    const rounds: { idle: Phase; flood: Phase }[] = [];
    for (let round = 0; round < roundCount; round++) {
      const idle = await phase({ ...common, seconds, logins: 0, round });
      rounds.push({ idle, flood: await phase({ ...common, seconds, logins, round }) });
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const line = (name: string, of: (p: Phase) => Series) => {
      const alone = median(rounds.map((r) => of(r.idle).rps));
      const during = median(rounds.map((r) => of(r.flood).rps));
      const p99Alone = median(rounds.map((r) => of(r.idle).p99));
      const p99During = median(rounds.map((r) => of(r.flood).p99));
      const ratio = median(rounds.map((r) => of(r.flood).rps / of(r.idle).rps));
      const p99Ratio = median(rounds.map((r) => of(r.flood).p99 / of(r.idle).p99));
      const bad = rounds.reduce((n, r) => n + of(r.flood).bad, 0);
      const max = Math.max(...rounds.map((r) => of(r.flood).max));
      console.log(
        `  ${name.padEnd(20)} alone ${alone.toFixed(0).padStart(5)} req/s p99 ${p99Alone.toFixed(1).padStart(6)} ms | flood ${during.toFixed(0).padStart(5)} req/s p99 ${p99During.toFixed(1).padStart(7)} ms max ${max.toFixed(0).padStart(5)} ms | ` +
          `${ratio.toFixed(2)}x throughput (goal >= 0.7), p99 ${p99Ratio.toFixed(1)}x (goal <= 3)${bad ? `, ${bad} not 200` : ''}`,
      );
    };
    const took = rounds.map((r) => (r.flood.flood!.ms / 1000).toFixed(1)).join(', ');
    console.log(`floods (${dialect}: ${logins} wrong logins from rotating addresses sent evenly over ${seconds} s, answered within ${took} s; medians of ${roundCount} rounds)`);
    line('staff list (users)', (p) => p.staff);
    line('/healthz', (p) => p.health);
    const statuses: Record<string, number> = {};
    for (const r of rounds) for (const [status, n] of Object.entries(r.flood.flood!.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    console.log(`  the floods answered: ${Object.entries(statuses).map(([status, n]) => `${n} x ${status}`).join(', ')}${statuses['503'] ? '  (goal: no 503)' : ''}`);
    for (const who of Object.keys(rounds[0].flood.real!)) {
      const tries = rounds.map((r) => r.flood.real![who]);
      console.log(`  ${who.padEnd(28)} ${tries.map((r) => `${r.status}${r.tries > 1 ? ` after ${r.tries} tries` : ' at once'} (${r.ms.toFixed(0)} ms)`).join('; ')}`);
    }
  } finally {
    await app.close();
    await cleanup();
  }
}

/** Staff calls and /healthz alone and during a login flood, on each dialect (or `--dialect`). */
export async function floods(): Promise<void> {
  const logins = Number(option('logins', '1000'));
  const seconds = Number(option('seconds', '5'));
  const roundCount = Number(option('rounds', '3'));
  const dialects: Dialect[] = option('dialect', '') ? [option('dialect', '') as Dialect] : ['sqlite', 'postgres'];
  for (const dialect of dialects) await run(dialect, logins, seconds, roundCount);
}
