// The capacity model of issue 34 (item 2): what a TV fleet asks of the servers in a day, and how many server processes,
// PostgreSQL resources and Redis it needs. Its arithmetic is here once: docs/capacity.md is written from it
// (`npm run bench -- capacity-doc`) and the fleet simulation (`npm run bench -- fleet`) prints its predictions beside
// what it measured. Every assumption about the fleet is a named constant below, said plainly.

/** How a TV fleet behaves in a day. Assumptions, not measurements: change them here and regenerate the doc. */
export interface FleetPattern {
  /** App starts per TV per day (each one lookup): the set switched on, the app opened again after another source. */
  startsPerDay: number;
  /** App info reports per start (docs/device-api.md: the app reports itself when it starts). */
  appInfoPerStart: number;
  /** Achieved-goal reports per start (only devices in an experiment report goals). */
  goalsPerStart: number;
  /** Share of the lookups that are a device's first call into a collecting experiment (one row written each). */
  firstCallShare: number;
  /** The share of the day's starts in each hour (local time of the fleet; sums to 1). */
  hourly: number[];
  /** Peak minute over the peak hour's average minute (starts bunch at the top of the hour, after an ad break). */
  minuteBurst: number;
}

/**
 * Television viewing in Europe: low at night, a morning bump, rising in the afternoon, prime time 19-22 h. Shares of
 * the day's starts by hour; the peak hour (20-21 h) carries 11 % of the day, 2.6x the average hour.
 */
const HOURLY_WEIGHTS = [1.2, 0.7, 0.4, 0.3, 0.3, 0.5, 1.2, 2.4, 3, 3, 3, 3.2, 3.6, 3.6, 3.6, 3.8, 4.2, 5, 6.5, 8.6, 10.8, 10, 7.4, 3.7];

export const TV_FLEET: FleetPattern = {
  startsPerDay: 4,
  appInfoPerStart: 1,
  goalsPerStart: 0.2,
  firstCallShare: 0.02,
  hourly: HOURLY_WEIGHTS.map((w) => w / HOURLY_WEIGHTS.reduce((a, b) => a + b, 0)),
  minuteBurst: 1.5,
};

/** What one server process serves (measured: `npm run bench -- fleet`, its capacity phase) on a dialect. */
export interface ProcessFigures {
  /** Lookups per second of one process at its limit, a mix with `firstCallShare` first calls. */
  lookupsPerSecond: number;
  /** Server CPU per lookup of that mix (ms), and per report (ms). */
  lookupCpuMs: number;
  reportCpuMs: number;
  /** Reports (app info) per second of one process at its limit. */
  reportsPerSecond: number;
  /** Collection writes per second one process reaches (first calls only). */
  collectionWritesPerSecond: number;
  /** PostgreSQL: WAL bytes and database CPU (ms) per device write (a join or a report). */
  walBytesPerWrite?: number;
  dbCpuMsPerWrite?: number;
  /** CPU seconds a process uses per second with no call (timers, the snapshot's poll, Redis and socket.io). */
  idleCpuPerSecond?: number;
  /**
   * Server CPU at a fleet's pace, not at the limit (a call that arrives alone wakes the process for itself, 2-3x the
   * CPU of one among many): CPU seconds per second = `activeCpuPerSecond` + starts per second x `startCpuMs` / 1000,
   * a line through two paced runs (a night hour's pace and the evening peak's), for all the processes together.
   */
  startCpuMs?: number;
  activeCpuPerSecond?: number;
}

/**
 * Measured on this 2-core machine (shared: load average 9-20) with `npm run bench -- fleet`, `-- lookup` and the
 * reports alone, 2026-11-28: the best of the runs (the others were slowed by the machine's other work). WAL per
 * write is PostgreSQL's whole cluster's during the run (other databases wrote meanwhile): an upper bound, taken as
 * 2.5 kB from the quietest run. The doc quotes these; the fleet bench measures its own and predicts from those.
 */
export const MEASURED: Record<'sqlite' | 'postgres', ProcessFigures> = {
  sqlite: { lookupsPerSecond: 5600, lookupCpuMs: 0.09, reportCpuMs: 0.2, reportsPerSecond: 1380, collectionWritesPerSecond: 1100 },
  postgres: { lookupsPerSecond: 8200, lookupCpuMs: 0.092, reportCpuMs: 0.69, reportsPerSecond: 690, collectionWritesPerSecond: 830, walBytesPerWrite: 2500, dbCpuMsPerWrite: 0.84 },
};

/** Planning margins: a process runs at most this share of its measured limit at the peak minute (room for a lost one). */
export const HEADROOM = 0.6;
/** Pool connections per server process (server/db/database.ts), and PostgreSQL's connections per core worth running. */
export const POOL_PER_PROCESS = 10;
/** Redis: one core's operations per second at the rate limit's script (EVALSHA of 2 GETs and an INCR), planned. */
export const REDIS_OPS_PER_CORE = 60_000;
/** Bytes Redis holds per address counted (two windows' keys with their expiry). */
export const REDIS_BYTES_PER_ADDRESS = 200;

export interface Demand {
  tvs: number;
  startsPerDay: number;
  /** Device calls (lookups and reports) per second: the day's average, the peak hour's, the peak minute's. */
  lookupsAvg: number;
  lookupsPeakHour: number;
  lookupsPeakMinute: number;
  reportsPeakMinute: number;
  /** Rows written per second at the peak minute (first calls + reports), and per day. */
  writesPeakMinute: number;
  writesPerDay: number;
}

/** What `tvs` TVs ask in a day and at its peak. */
export function demand(tvs: number, fleet: FleetPattern = TV_FLEET): Demand {
  const starts = tvs * fleet.startsPerDay;
  const peakShare = Math.max(...fleet.hourly);
  const lookupsAvg = starts / 86_400;
  const lookupsPeakHour = (starts * peakShare) / 3600;
  const lookupsPeakMinute = lookupsPeakHour * fleet.minuteBurst;
  const reportsPerStart = fleet.appInfoPerStart + fleet.goalsPerStart;
  const writesPerStart = fleet.firstCallShare + reportsPerStart;
  return {
    tvs,
    startsPerDay: starts,
    lookupsAvg,
    lookupsPeakHour,
    lookupsPeakMinute,
    reportsPeakMinute: lookupsPeakMinute * reportsPerStart,
    writesPeakMinute: lookupsPeakMinute * writesPerStart,
    writesPerDay: starts * writesPerStart,
  };
}

/** Share of one process's time the calls of a second take: lookups and reports at their measured limits. */
export function processLoad(lookupsPerSecond: number, reportsPerSecond: number, p: ProcessFigures): number {
  return lookupsPerSecond / p.lookupsPerSecond + reportsPerSecond / p.reportsPerSecond;
}

export interface Plan {
  demand: Demand;
  /** Server processes (one per core), with one spare. */
  processes: number;
  pgConnections: number;
  /** PostgreSQL cores busy with the device writes at the peak minute, WAL written (MB/s), and commits per second. */
  pgCores: number;
  walMBps: number;
  commitsPerSecond: number;
  /** Redis operations per second at the peak minute, cores (instances) needed and memory (MB). */
  redisOpsPerSecond: number;
  redisCores: number;
  redisMB: number;
}

/** What a fleet of `tvs` needs, from one process's figures on PostgreSQL (several processes need PostgreSQL and Redis). */
export function plan(tvs: number, p: ProcessFigures = MEASURED.postgres, fleet: FleetPattern = TV_FLEET): Plan {
  const d = demand(tvs, fleet);
  const busy = processLoad(d.lookupsPeakMinute, d.reportsPeakMinute, p);
  const processes = Math.ceil(busy / HEADROOM) + 1;
  const calls = d.lookupsPeakMinute + d.reportsPeakMinute;
  // Addresses counted at once: the TVs that call within a rate window (6 s at the default burst), each one address.
  const addresses = calls * 6;
  return {
    demand: d,
    processes,
    pgConnections: processes * POOL_PER_PROCESS,
    pgCores: Math.max(1, (d.writesPeakMinute * (p.dbCpuMsPerWrite ?? 0.4)) / 1000 / HEADROOM),
    walMBps: (d.writesPeakMinute * (p.walBytesPerWrite ?? 900)) / 1e6,
    commitsPerSecond: d.writesPeakMinute,
    redisOpsPerSecond: calls,
    redisCores: Math.max(1, Math.ceil(calls / (REDIS_OPS_PER_CORE * HEADROOM))),
    redisMB: (addresses * REDIS_BYTES_PER_ADDRESS) / 1e6,
  };
}

/** The rates of one simulated hour for `tvs` TVs: lookups, app infos and goals per second. */
export function hourRates(tvs: number, hour: number, fleet: FleetPattern = TV_FLEET): { lookups: number; reports: number } {
  const lookups = (tvs * fleet.startsPerDay * fleet.hourly[hour]) / 3600;
  return { lookups, reports: lookups * (fleet.appInfoPerStart + fleet.goalsPerStart) };
}

/**
 * What the model predicts for a simulated day: per hour, the server CPU seconds the calls take (from the measured
 * CPU per call) and the rows written; summed over the day.
 */
export function predictDay(tvs: number, p: ProcessFigures, secondsPerHour: number, processes = 2, fleet: FleetPattern = TV_FLEET) {
  return fleet.hourly.map((_, hour) => {
    const r = hourRates(tvs, hour, fleet);
    const lookups = r.lookups * secondsPerHour;
    const reports = r.reports * secondsPerHour;
    return {
      hour,
      lookups,
      reports,
      cpuSeconds:
        p.startCpuMs !== undefined
          ? (lookups * p.startCpuMs) / 1000 + (p.activeCpuPerSecond ?? 0) * secondsPerHour
          : (lookups * p.lookupCpuMs + reports * p.reportCpuMs) / 1000 + (p.idleCpuPerSecond ?? 0) * processes * secondsPerHour,
      rows: lookups * fleet.firstCallShare + reports,
    };
  });
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The doc's tables: the fleet's demand and the plan for 1, 10 and 100 million TVs. */
export function planTables(fleets = [1e6, 1e7, 1e8], p: ProcessFigures = MEASURED.postgres): string {
  const plans = fleets.map((n) => plan(n, p));
  const head = `| | ${fleets.map((n) => `${fmt(n / 1e6)} million TVs`).join(' | ')} |\n|---|${fleets.map(() => '---').join('|')}|`;
  const row = (label: string, f: (x: Plan) => string) => `| ${label} | ${plans.map(f).join(' | ')} |`;
  return [
    head,
    row('app starts a day', (x) => fmt(x.demand.startsPerDay)),
    row('lookups/s, day average', (x) => fmt(x.demand.lookupsAvg)),
    row('lookups/s, peak hour', (x) => fmt(x.demand.lookupsPeakHour)),
    row('lookups/s, peak minute', (x) => fmt(x.demand.lookupsPeakMinute)),
    row('reports/s, peak minute', (x) => fmt(x.demand.reportsPeakMinute)),
    row('rows written/s, peak minute', (x) => fmt(x.demand.writesPeakMinute)),
    row('rows written a day', (x) => fmt(x.demand.writesPerDay)),
    row('server processes (1 core each, 1 spare)', (x) => fmt(x.processes)),
    row('PostgreSQL connections (10 a process)', (x) => fmt(x.pgConnections)),
    row('PostgreSQL cores for the device writes', (x) => fmt(x.pgCores, 1)),
    row('PostgreSQL commits/s (write IOPS before group commit)', (x) => fmt(x.commitsPerSecond)),
    row('WAL MB/s', (x) => fmt(x.walMBps, 1)),
    row('Redis ops/s (rate limit)', (x) => fmt(x.redisOpsPerSecond)),
    row('Redis cores (instances or shards)', (x) => fmt(x.redisCores)),
    row('Redis memory (MB)', (x) => fmt(x.redisMB, 1)),
  ].join('\n');
}
