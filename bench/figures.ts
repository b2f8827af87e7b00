// The sub-benches' figures as rows of the scale report's table (bench/goals.ts), each with the issue's goal for it.
import { listMet, type ListFigures, type Row } from './lists.ts';
import type { LookupRound } from './lookup.ts';
import type { FleetFigures } from './fleet.ts';
import type { ClientFigures } from './client.ts';
import type { IpImportFigures } from './ip-import.ts';
import type { JsonBodyFigures } from './json-body.ts';
import { FLEET_GOALS, FLOOR_GOALS, LOOKUP_BUSY, LOOKUP_OF_HEALTH } from './goals.ts';
import { BUSY_GOALS, CLIENT_GOALS, LIST_GOALS, LONGEST_TASK_MS, PREVIEW_MS, type ClientFigure, type Figure, type Goal } from './goals.ts';

/** Each list call (goal: a throughput and a p99), each figure under the heavy loops (a share of alone), and the references. */
export function listFigures(lists: ListFigures): Figure[] {
  const out: Figure[] = [];
  for (const [dialect, rows] of lists.byDialect) {
    if (!Array.isArray(rows)) {
      out.push({ name: `${dialect}: lists at ${lists.rows.toLocaleString('en')} rows`, value: NaN, unit: 'req/s', goals: LIST_GOALS, failed: rows });
      continue;
    }
    for (const row of rows) {
      const name = `${dialect}: ${row.name}`;
      if (row.kind === 'list') {
        out.push({ name, value: row.r.rps, p99: row.r.p99, unit: 'req/s', baseline: { value: row.against.rps, of: '/healthz around it' }, goals: LIST_GOALS });
      } else if (row.kind === 'busy') {
        out.push({ name, value: row.r.rps, unit: 'req/s', baseline: { value: row.alone!.rps, of: 'alone' }, ratio: row.ratio, goals: BUSY_GOALS });
      } else {
        out.push({ name, value: row.r.rps, p99: row.r.p99, unit: 'req/s', goals: [] });
      }
    }
  }
  return out;
}

/** The panel against react-admin: medians of the same runs; under the JS to a list and the 500 rows, the grid's own floor. */
export function clientTable(client: ClientFigures): Figure[] {
  const alone = 'client: the grid alone (bench/grid-floor)';
  const floor: Partial<Record<ClientFigure, Figure>> = {
    jsList: { name: `${alone}: JS to its rows`, value: client.gridFloor.js / 1024, unit: 'kB', goals: [] },
    rows500: { name: `${alone}: 500 rows handed to it -> paint`, value: client.gridFloor.rows500, unit: 'ms', goals: [] },
  };
  const figures = CLIENT_GOALS.map((g): Figure => {
    const inUnit = (bytesOrMs: number) => (g.unit === 'kB' ? bytesOrMs / 1024 : bytesOrMs);
    const goals: Goal[] = [...(g.ratio !== undefined ? [{ on: 'ratio' as const, max: g.ratio }] : []), ...(g.max !== undefined ? [{ on: 'value' as const, max: g.max }] : [])];
    return { name: `client: ${g.label}`, value: inUnit(client.ours[g.figure]), unit: g.unit, baseline: { value: inUnit(client.reactAdmin[g.figure]), of: 'react-admin' }, goals };
  });
  // Each reference right under the panel's figure it is the floor of.
  return CLIENT_GOALS.flatMap((g, i) => [figures[i], ...(floor[g.figure] ? [floor[g.figure]!] : [])]);
}

/** This tree's IP import: the panel's steps, and the server's longest stall per dialect (against the same machine idle). */
export function ipImportFigures(ip: IpImportFigures): Figure[] {
  const out: Figure[] = [];
  for (const { lines, figures: f } of ip.panel.filter((p) => p.tree === 'after')) {
    const name = `IP import in the panel (${lines.toLocaleString('en')} lines, ${f.addresses} addresses)`;
    const task = [{ on: 'value' as const, max: LONGEST_TASK_MS }];
    out.push({ name: `${name}: file chosen -> preview`, value: f.previewMs, unit: 'ms', goals: [{ on: 'value', max: PREVIEW_MS }] });
    out.push({ name: `${name}: longest task to the preview`, value: f.longestToPreviewMs, unit: 'ms', goals: task });
    out.push({ name: `${name}: longest task, OK -> answer`, value: f.longestSendMs, unit: 'ms', goals: task });
    out.push({ name: `${name}: longest task, answer -> list reloaded`, value: f.longestAfterMs, unit: 'ms', goals: task });
  }
  for (const { dialect, lines, figures: f } of ip.server.filter((s) => s.tree === 'after')) {
    const name = `${dialect}: IP import of ${lines.toLocaleString('en')} addresses, longest server stall`;
    const failed = f.answer.startsWith('200 ') ? undefined : `the import answered ${f.answer}`;
    out.push({ name, value: f.worstHealthMs, unit: 'ms', baseline: { value: f.idleWorstMs, of: 'no import' }, goals: [], failed });
  }
  return out;
}

/** The server's longest stall on a large body, against one JSON.parse of the same text (what it was before). */
export function jsonBodyFigures(body: JsonBodyFigures): Figure[] {
  const name = `JSON body of ${body.mib.toFixed(0)} MiB: the server's longest event-loop stall`;
  return [
    { name, value: body.sliced.stall, unit: 'ms', baseline: { value: body.once.stall, of: 'one JSON.parse' }, goals: [] },
    { name: `${name}, to the IP import`, value: body.imported.stall, unit: 'ms', baseline: { value: body.idle.stall, of: 'nothing posted' }, goals: [] },
  ];
}

// ---- issue 34's one table ----

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (values: number[], digits = 2) => `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;

/** Item 1 on one dialect: the lookup against /healthz in the same rounds, and under two heavy list loops against itself idle (medians, the rounds' spread in the name). */
export function lookupFigures(dialect: string, rounds: LookupRound[]): Figure[] {
  const ofHealth = rounds.map((r) => r.lookup.rps / r.health.rps);
  const busy = rounds.map((r) => r.busy.rps / r.lookup.rps);
  const rps = (pick: (r: LookupRound) => number) => median(rounds.map(pick));
  return [
    {
      name: `${dialect}: device lookup vs /healthz (${rounds.length} rounds ${spread(ofHealth)}x, p99 ${spread(rounds.map((r) => r.lookup.p99), 1)} ms)`,
      value: rps((r) => r.lookup.rps),
      p99: rps((r) => r.lookup.p99),
      unit: 'req/s',
      baseline: { value: rps((r) => r.health.rps), of: '/healthz, same rounds' },
      ratio: median(ofHealth),
      goals: LOOKUP_OF_HEALTH,
    },
    {
      name: `${dialect}: a lookup's answer, same bytes, from a route doing nothing else (the lookup's transport; rounds ${spread(rounds.map((r) => r.bytes.rps / r.health.rps))}x /healthz)`,
      value: rps((r) => r.bytes.rps),
      p99: rps((r) => r.bytes.p99),
      unit: 'req/s',
      baseline: { value: rps((r) => r.health.rps), of: '/healthz, same rounds' },
      ratio: median(rounds.map((r) => r.bytes.rps / r.health.rps)),
      goals: [],
    },
    {
      name: `${dialect}: device lookup while 2 clients loop the heaviest list (rounds ${spread(busy)}x)`,
      value: rps((r) => r.busy.rps),
      p99: rps((r) => r.busy.p99),
      unit: 'req/s',
      baseline: { value: rps((r) => r.lookup.rps), of: 'lookup idle' },
      ratio: median(busy),
      goals: LOOKUP_BUSY,
    },
  ];
}

/**
 * Item 3 per dialect: the list cases that meet their goal out of all, then the worst case by its share of /healthz
 * and the worst by p99 (one row when they are the same case).
 */
export function listSummary(lists: ListFigures): Figure[] {
  const out: Figure[] = [];
  const at = `${lists.rows.toLocaleString('en')} rows`;
  for (const [dialect, rows] of lists.byDialect) {
    if (!Array.isArray(rows)) {
      out.push({ name: `${dialect}: lists at ${at}`, value: NaN, unit: 'cases', goals: [], failed: rows });
      continue;
    }
    const cases = rows.filter((r) => r.kind === 'list');
    const met = cases.filter(listMet).length;
    out.push({ name: `${dialect}: lists at ${at}, cases that meet their goal`, value: met, unit: 'cases', baseline: { value: cases.length, of: 'cases generated' }, goals: [{ on: 'ratio', min: 1 }] });
    if (!cases.length) continue;
    const share = (r: Row) => r.r.rps / r.against.rps;
    const byRatio = cases.reduce((a, b) => (share(b) < share(a) ? b : a));
    const byP99 = cases.reduce((a, b) => (!(b.r.p99 <= a.r.p99) ? b : a));
    for (const [what, row] of byRatio === byP99 ? [['worst', byRatio] as const] : [['lowest share', byRatio] as const, ['highest p99', byP99] as const]) {
      out.push({ name: `${dialect}: ${what} list case: ${row.name}`, value: row.r.rps, p99: row.r.p99, unit: 'req/s', baseline: { value: row.against.rps, of: '/healthz around it' }, goals: LIST_GOALS });
    }
  }
  return out;
}

/** Item 4: the panel against the grid alone and react-admin, medians of the same runs. */
export function floorTable(client: ClientFigures): Figure[] {
  return FLOOR_GOALS.map((g) => {
    const inUnit = (bytesOrMs: number) => (g.unit === 'kB' ? bytesOrMs / 1024 : bytesOrMs);
    const ours = inUnit(client.ours[g.figure]);
    const floor = g.figure === 'jsList' ? client.gridFloor.js : g.figure === 'rows500' ? client.gridFloor.rows500 : NaN;
    const base = inUnit(g.of === 'grid alone' ? floor : client.reactAdmin[g.figure]);
    const goals: Goal[] = g.plusKb !== undefined ? [{ on: 'value', max: Math.round((base + g.plusKb) * 10) / 10 }] : [{ on: 'ratio', max: g.ratio }];
    return { name: `client: ${g.label}`, value: ours, unit: g.unit, baseline: { value: base, of: g.of }, goals };
  });
}

/** Item 2: the fleet simulation's day measured against the capacity model's prediction for it. */
export function fleetFigures(f: FleetFigures): Figure[] {
  const of = `model (${f.tvs.toLocaleString('en')} TVs)`;
  return [
    { name: 'fleet: server CPU over the simulated day', value: f.cpuMeasured, unit: 's', baseline: { value: f.cpuPredicted, of }, goals: FLEET_GOALS },
    { name: 'fleet: rows written over the simulated day', value: f.rowsMeasured, unit: 'rows', baseline: { value: f.rowsPredicted, of }, goals: FLEET_GOALS },
  ];
}
