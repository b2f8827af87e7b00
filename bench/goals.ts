// The goals of issue 14 and the one table of the scale report (point 5): every figure beside what it is compared with
// in the same run (react-admin, the same call alone, /healthz), their ratio, the issue's goal and whether it is met.

export type Unit = 'req/s' | 'ms' | 'kB' | 's' | 'rows' | 'cases';

/** A bound on one of a figure's numbers: its value, its p99 or its ratio to the baseline. */
export interface Goal {
  on: 'value' | 'p99' | 'ratio';
  max?: number;
  min?: number;
}

export interface Figure {
  name: string;
  value: number;
  unit: Unit;
  /** The latency a throughput figure was measured with. */
  p99?: number;
  /** What the value is compared with, measured in the same run. */
  baseline?: { value: number; of: string };
  /** When the ratio is not value / baseline (e.g. the median of per-round ratios). */
  ratio?: number;
  goals: Goal[];
  /** Why the figure is missing (its part of the bench failed). */
  failed?: string;
}

/** Every list call at scale, on both dialects (issue 34 item 3): 0.07x of /healthz in the same run (~1,000 req/s here). */
export const LIST_GOALS: Goal[] = [
  { on: 'ratio', min: 0.07 },
  { on: 'p99', max: 20 },
];
/** Item 2: /healthz and the device lookup while two clients loop the heaviest list query, as a share of alone. */
export const BUSY_GOALS: Goal[] = [{ on: 'ratio', min: 0.7 }];
/** Item 4: the IP import of 100,000 lines to its preview, and no main-thread task over 100 ms at any step. */
export const PREVIEW_MS = 300;
export const LONGEST_TASK_MS = 100;

/** The figures bench/client.ts measures in both apps. */
export type ClientFigure = 'jsLogin' | 'jsList' | 'loginToRows' | 'loginToRowsPaused' | 'edit' | 'rows500' | 'rows500Click' | 'expand';

export interface ClientGoal {
  figure: ClientFigure;
  label: string;
  unit: 'kB' | 'ms';
  /** The issue's goal: a ratio to react-admin, an absolute figure (in the unit), or both. */
  ratio?: number;
  max?: number;
}

/** Item 4: the panel against react-admin, measured in one run. */
export const CLIENT_GOALS: ClientGoal[] = [
  { figure: 'jsLogin', label: 'JS to the login screen', unit: 'kB', ratio: 0.5, max: 155 },
  { figure: 'jsList', label: 'JS to a list (App Info, through login)', unit: 'kB', ratio: 0.95, max: 294 },
  { figure: 'loginToRows', label: 'login click to first rows (typed at once)', unit: 'ms', ratio: 0.8 },
  { figure: 'loginToRowsPaused', label: 'login click to first rows (typed in 2 s)', unit: 'ms', ratio: 0.8 },
  { figure: 'edit', label: 'row edit click to a filled form', unit: 'ms', max: 81 },
  { figure: 'rows500', label: '500 rows: response to paint', unit: 'ms', max: 60 },
  // No goal in the issue: what the user waits for the next page, the call included (the panel asks at the click).
  { figure: 'rows500Click', label: '500 rows: next page click to paint', unit: 'ms' },
  { figure: 'expand', label: 'details row expand', unit: 'ms', max: 40 },
];

/**
 * Issue 34, item 4: the panel against the grid it is built on (bench/grid-floor, the floor) and react-admin, in one
 * run. `of` names the baseline; `ratio` bounds ours / baseline, `plusKb` bounds ours - baseline.
 */
export const FLOOR_GOALS: { figure: ClientFigure; label: string; unit: 'kB' | 'ms'; of: 'grid alone' | 'react-admin'; ratio?: number; plusKb?: number }[] = [
  { figure: 'jsList', label: 'JS to a list', unit: 'kB', of: 'grid alone', plusKb: 30 },
  { figure: 'rows500', label: '500 rows: response to paint', unit: 'ms', of: 'grid alone', ratio: 1.3 },
  { figure: 'expand', label: 'details row expand', unit: 'ms', of: 'react-admin', ratio: 1 },
  { figure: 'loginToRows', label: 'login to first rows (typed at once)', unit: 'ms', of: 'react-admin', ratio: 0.8 },
];
/** Item 1: the device lookup against /healthz in the same rounds, and under two heavy list loops against itself idle. */
export const LOOKUP_OF_HEALTH: Goal[] = [
  { on: 'ratio', min: 0.8 },
  { on: 'p99', max: 5 },
];
export const LOOKUP_BUSY: Goal[] = [{ on: 'ratio', min: 0.8 }];
/** Item 2: the fleet simulation's measure within 25 % of the capacity model's prediction. */
export const FLEET_GOALS: Goal[] = [{ on: 'ratio', min: 0.75, max: 1.25 }];

export type Verdict = 'met' | 'not met' | 'no goal' | 'failed';

export const ratioOf = (f: Figure): number | undefined => f.ratio ?? (f.baseline ? f.value / f.baseline.value : undefined);

/**
 * Whether a figure meets every goal it has; a number it lacks (NaN, no baseline) fails its goal.
 * @example verdict({ name: 'edit', value: 70, unit: 'ms', goals: [{ on: 'value', max: 81 }] }) // 'met'
 */
export function verdict(f: Figure): Verdict {
  if (f.failed !== undefined) return 'failed';
  if (f.goals.length === 0) return 'no goal';
  const holds = (g: Goal) => {
    const n = g.on === 'value' ? f.value : g.on === 'p99' ? f.p99 : ratioOf(f);
    if (n === undefined || Number.isNaN(n)) return false;
    return (g.max === undefined || n <= g.max) && (g.min === undefined || n >= g.min);
  };
  return f.goals.every(holds) ? 'met' : 'not met';
}

const number = (n: number, unit: Unit) => {
  if (Number.isNaN(n)) return '-';
  if (unit === 'kB') return `${n.toFixed(1)} kB`;
  if (unit === 's') return `${n.toFixed(1)} s`;
  if (unit === 'rows' || unit === 'cases') return `${Math.round(n).toLocaleString('en')} ${unit}`;
  if (unit === 'ms') return `${n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en')} ms`;
  return `${n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en')} req/s`;
};

const bound = (g: Goal, unit: Unit) => {
  const show = (n: number) => (g.on === 'ratio' ? `${n}x` : g.on === 'p99' ? number(n, 'ms') : number(n, unit));
  const label = g.on === 'p99' ? 'p99 ' : '';
  return [g.min !== undefined ? `${label}>= ${show(g.min)}` : '', g.max !== undefined ? `${label}<= ${show(g.max)}` : ''].filter(Boolean).join(', ');
};

/** The table's cells for one figure: figure | value | baseline | ratio | goal | met. */
export function cells(f: Figure): string[] {
  const goal = f.goals.map((g) => bound(g, f.unit)).join(', ') || '-';
  if (f.failed !== undefined) return [f.name, `failed: ${f.failed.split('\n')[0].slice(0, 80)}`, '', '', goal, 'failed'];
  const value = number(f.value, f.unit) + (f.p99 !== undefined ? `, p99 ${number(f.p99, 'ms')}` : '');
  const baseline = f.baseline ? `${number(f.baseline.value, f.unit)} (${f.baseline.of})` : '-';
  const ratio = ratioOf(f);
  return [f.name, value, baseline, ratio === undefined || Number.isNaN(ratio) ? '-' : `${ratio.toFixed(2)}x`, goal, verdict(f)];
}

/** The figures as one aligned Markdown table, with a line counting the figures that meet their goal. */
export function table(figures: Figure[], issue = 14): string {
  const header = ['figure', 'value', 'baseline (same run)', 'ratio', `goal (issue ${issue})`, 'met?'];
  const rows = figures.map(cells);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const verdicts = figures.map(verdict);
  const count = (v: Verdict) => verdicts.filter((x) => x === v).length;
  const summary = `${count('met')} of ${figures.length - count('no goal')} figures with a goal meet it${count('failed') ? ` (${count('failed')} failed to measure)` : ''}`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line), summary].join('\n');
}
