// A day of a TV fleet compressed into two minutes (issue 34, item 2), against TWO server processes on one PostgreSQL
// and one Redis (the device calls' limit counted in Redis, as in production): first each process's own figures are
// measured (lookups/s and server CPU per lookup, reports/s and CPU per report, WAL per write), then the capacity model
// (bench/capacity-model.ts) picks the fleet whose evening peak takes 35 % of the two processes, predicts each hour's
// server CPU (a line through two paced runs, a night hour's pace and the peak's) and rows from the measured figures, and the day is sent hour by hour (HOUR_SECONDS each) at the model's
// rates, round robin over the two processes as a load balancer would. Printed: predicted beside measured, per hour and
// for the day; they must agree within 25 %. Traffic goes only to 127.0.0.1, bounded by the day's length.
//   npm run bench -- fleet [--seconds 4]   (seconds per simulated hour)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../server/app.ts';
import { ADMIN, freshPostgresDatabase } from '../tests/server/harness.ts';
import { TV_FLEET, hourRates, predictDay, processLoad, type ProcessFigures } from './capacity-model.ts';
import { deviceMix, seedCollecting, sendTraffic, type DeviceRequest } from './device-traffic.ts';
import { seed } from './lookup.ts';
import { option } from './options.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The peak hour takes this share of the two processes (below the model's HEADROOM: the machine is shared with the load generator). */
const PEAK_LOAD = 0.35;
const AGREE = 0.25;

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    const read = (d: Buffer) => {
      out += d;
      const m = /listening on|The panel is on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  return { child, port };
}

const reportRequests = (devices: DeviceRequest[]): DeviceRequest[] =>
  devices.map((d, i) => ({ ...d, method: 'POST', path: '/v1/appinfo/report', body: JSON.stringify({ appInstallId: '{n}', version: '1.20.3', whitelabel: 'aurora', platform: 'tizen', active: i % 2 ? 'yes' : 'no' }) }));

/** The day's totals: what the capacity model predicted and what the two processes measured. */
export interface FleetFigures {
  tvs: number;
  cpuPredicted: number;
  cpuMeasured: number;
  rowsPredicted: number;
  rowsMeasured: number;
}

/** The model and the simulation agree when the measure is within this share of the prediction. */
export const FLEET_AGREE = AGREE;

export async function fleet(hourSeconds = Number(option('seconds', '4'))): Promise<FleetFigures> {
  console.log(`fleet: a day in ${(24 * hourSeconds).toFixed(0)} s against 2 server processes on one PostgreSQL and Redis; ${cpus().length} cores, load ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  const db = await freshPostgresDatabase();
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'bench-fleet-')));
  const servers: ChildProcess[] = [];
  try {
    const app = await buildApp({ config: { dataDir: dirs[2], databaseUrl: db.url, adminEmail: ADMIN.email, adminPassword: ADMIN.password, distDir: join(dirs[2], 'no-dist') } });
    await seed(app, 1000);
    await seedCollecting(app);
    await app.close();
    const env = (dir: string) => ({ DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: `bench-fleet-${process.pid}`, TRUSTED_PROXIES: '127.0.0.1', DATA_DIR: dir, DIST_DIR: join(dir, 'no-dist'), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    const started = await Promise.all(dirs.slice(0, 2).map((dir) => startServer(env(dir))));
    servers.push(...started.map((s) => s.child));
    const ports = started.map((s) => s.port);
    const pids = started.map((s) => s.child.pid!);
    const lookups = deviceMix(10_000, TV_FLEET.firstCallShare);
    const reports = reportRequests(lookups);
    const writes = async () => {
      const [{ n }] = await sql<{ n: number }>`select (select count(*) from experiment_users) + (select count(*) from app_infos) as n`.execute(pg).then((r) => r.rows);
      return Number(n);
    };
    const wal = async () => Number((await sql<{ b: string }>`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as b`.execute(pg)).rows[0].b);
    const { Kysely, PostgresDialect } = await import('kysely');
    const pgMod = (await import('pg')).default;
    const pool = new pgMod.Pool({ connectionString: db.url, max: 1 });
    const pg = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    try {
      // Warm both, then each process's own figures, one process at a time, at 10 connections.
      for (const port of ports) await sendTraffic(port, lookups, { durationMs: 1000 });
      const idle0 = cpuSeconds(pids[0]);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const idleCpuPerSecond = (cpuSeconds(pids[0]) - idle0) / 2;
      const cpu0 = cpuSeconds(pids[0]);
      const l = await sendTraffic(ports[0], lookups, { durationMs: 3000 });
      const cpu1 = cpuSeconds(pids[0]);
      const w0 = await writes();
      const wal0 = await wal();
      const backends = async () => {
        const rows = (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(pg)).rows;
        return new Map(rows.map((row) => [row.pid, (() => { try { return cpuSeconds(row.pid); } catch { return 0; } })()]));
      };
      const db0 = await backends();
      const r = await sendTraffic(ports[0], reports, { durationMs: 3000 });
      const cpu2 = cpuSeconds(pids[0]);
      const db1 = await backends();
      const dbCpu = [...db1].reduce((sum, [pid, s1]) => sum + s1 - (db0.get(pid) ?? s1), 0);
      const w1 = await writes();
      const wal1 = await wal();
      const measured: ProcessFigures = {
        lookupsPerSecond: l.rps,
        lookupCpuMs: ((cpu1 - cpu0) * 1000) / l.count,
        reportsPerSecond: r.rps,
        reportCpuMs: ((cpu2 - cpu1) * 1000) / r.count,
        collectionWritesPerSecond: l.fresh / l.seconds,
        walBytesPerWrite: (wal1 - wal0) / Math.max(1, w1 - w0),
        dbCpuMsPerWrite: (dbCpu * 1000) / Math.max(1, w1 - w0),
        idleCpuPerSecond,
      };
      console.log(
        `  one process: ${measured.lookupsPerSecond.toFixed(0)} lookups/s (${(measured.lookupCpuMs * 1000).toFixed(0)} us CPU each, p99 ${l.p99.toFixed(1)} ms, ${measured.collectionWritesPerSecond.toFixed(0)} collection writes/s), ${measured.reportsPerSecond.toFixed(0)} reports/s (${(measured.reportCpuMs * 1000).toFixed(0)} us CPU each, p99 ${r.p99.toFixed(1)} ms), ${measured.walBytesPerWrite!.toFixed(0)} WAL bytes and ${measured.dbCpuMsPerWrite!.toFixed(2)} ms PostgreSQL CPU a report, ${(idleCpuPerSecond * 1000).toFixed(0)} ms CPU a second idle`,
      );
      // The fleet whose peak hour takes PEAK_LOAD of the two processes.
      const peak = Math.max(...TV_FLEET.hourly);
      const perTv = (TV_FLEET.startsPerDay * peak) / 3600;
      const perTvLoad = processLoad(perTv, perTv * (TV_FLEET.appInfoPerStart + TV_FLEET.goalsPerStart), measured);
      const tvs = Math.round((2 * PEAK_LOAD) / perTvLoad);
      // The CPU of the fleet's pace: a line through a night hour's pace and the evening peak's, both processes.
      const paced = async (hour: number) => {
        const rates = hourRates(tvs, hour);
        const before = pids.map(cpuSeconds);
        await Promise.all([sendFleetHour(ports, lookups, rates.lookups, 3000), sendFleetHour(ports, reports, rates.reports, 3000)]);
        return { starts: rates.lookups, cpu: pids.map(cpuSeconds).reduce((a, b, i) => a + b - before[i], 0) / 3 };
      };
      const night = await paced(3);
      const evening = await paced(TV_FLEET.hourly.indexOf(peak));
      measured.startCpuMs = ((evening.cpu - night.cpu) / (evening.starts - night.starts)) * 1000;
      measured.activeCpuPerSecond = night.cpu - (night.starts * measured.startCpuMs) / 1000;
      console.log(`  paced: ${night.starts.toFixed(0)} starts/s take ${night.cpu.toFixed(2)} CPU s/s, ${evening.starts.toFixed(0)} take ${evening.cpu.toFixed(2)}: ${measured.activeCpuPerSecond.toFixed(3)} CPU s/s + ${measured.startCpuMs.toFixed(2)} ms an app start (its lookup and ${(TV_FLEET.appInfoPerStart + TV_FLEET.goalsPerStart).toFixed(1)} reports)`);
      const predicted = predictDay(tvs, measured, hourSeconds);
      console.log(`  simulated fleet: ${tvs.toLocaleString('en')} TVs, ${TV_FLEET.startsPerDay} starts a day each, peak hour ${(peak * 100).toFixed(1)} % of the day; each hour ${hourSeconds} s`);
      console.log(`  ${'hour'.padEnd(5)} ${'lookups/s'.padStart(10)} ${'served'.padStart(8)} ${'p99 ms'.padStart(7)} ${'CPU s predicted'.padStart(16)} ${'measured'.padStart(9)} ${'rows predicted'.padStart(15)} ${'measured'.padStart(9)}  not 200`);
      let cpuP = 0, cpuM = 0, rowsP = 0, rowsM = 0;
      for (const hour of predicted) {
        const before = pids.map(cpuSeconds);
        const rowsBefore = await writes();
        const ms = hourSeconds * 1000;
        const [lk, rp] = await Promise.all([
          sendFleetHour(ports, lookups, hour.lookups / hourSeconds, ms),
          sendFleetHour(ports, reports, hour.reports / hourSeconds, ms),
        ]);
        const cpu = pids.map(cpuSeconds).reduce((a, b, i) => a + b - before[i], 0);
        const rows = (await writes()) - rowsBefore;
        cpuP += hour.cpuSeconds;
        cpuM += cpu;
        rowsP += hour.rows;
        rowsM += rows;
        const odd = { ...lk.statuses, ...Object.fromEntries(Object.entries(rp.statuses).map(([k, v]) => [`report ${k}`, v])) };
        console.log(
          `  ${String(hour.hour).padEnd(5)} ${(hour.lookups / hourSeconds).toFixed(0).padStart(10)} ${(lk.count / lk.seconds).toFixed(0).padStart(8)} ${lk.p99.toFixed(1).padStart(7)} ${hour.cpuSeconds.toFixed(2).padStart(16)} ${cpu.toFixed(2).padStart(9)} ${hour.rows.toFixed(0).padStart(15)} ${String(rows).padStart(9)}  ${Object.keys(odd).length ? JSON.stringify(odd) : ''}`,
        );
      }
      const agree = (p: number, m: number) => Math.abs(m - p) / p <= AGREE;
      console.log(`  the day: server CPU predicted ${cpuP.toFixed(1)} s, measured ${cpuM.toFixed(1)} s (${((cpuM / cpuP - 1) * 100).toFixed(0)} %): ${agree(cpuP, cpuM) ? 'agree within 25 %' : 'DO NOT agree within 25 %'}`);
      console.log(`  the day: rows predicted ${rowsP.toFixed(0)}, measured ${rowsM} (${((rowsM / rowsP - 1) * 100).toFixed(0)} %): ${agree(rowsP, rowsM) ? 'agree within 25 %' : 'DO NOT agree within 25 %'}; load ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
      return { tvs, cpuPredicted: cpuP, cpuMeasured: cpuM, rowsPredicted: rowsP, rowsMeasured: rowsM };
    } finally {
      await pg.destroy();
    }
  } finally {
    for (const child of servers) child.kill('SIGTERM');
    await Promise.all(servers.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await db.drop();
  }
}

/** One simulated hour of one kind of call: `perSecond` sent at that pace, alternately to each process. */
function sendFleetHour(ports: number[], requests: DeviceRequest[], perSecond: number, ms: number) {
  return sendTraffic(ports[0], requests, { durationMs: ms, ratePerSecond: perSecond, ports, connections: 24 });
}
