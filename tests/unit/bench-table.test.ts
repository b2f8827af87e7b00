// The scale report's table (bench/goals.ts, bench/figures.ts): each figure is judged against issue 14's goal for it,
// so the verdicts a reader trusts are checked here on made-up figures (the bench itself times things; this does not).
import { expect, test } from 'vitest';
import { table, verdict } from '../../bench/goals';
import { clientTable, ipImportFigures, listFigures } from '../../bench/figures';
import type { Row } from '../../bench/lists';
import type { Load } from '../../bench/lookup';
import type { Figures } from '../../bench/client';

const load = (rps: number, p99 = 5): Load => ({ rps, p50: p99 / 2, p99, errors: 0, admin: 0, cpuUs: 0, elu: 0 });
const health = load(10_000, 2);
const list = (name: string, rps: number, p99: number): Row => ({ name, kind: 'list', r: load(rps, p99), against: health });

test('a list call meets its goal only at 1,000 req/s or more with a p99 of 20 ms or less', () => {
  const rows = [list('fast', 1500, 12), list('slow p99', 1500, 35), list('few', 400, 8)];
  const figures = listFigures({ rows: 20_000, byDialect: new Map([['sqlite', rows]]) });
  expect(figures.map((f) => [f.name, verdict(f)])).toEqual([
    ['sqlite: fast', 'met'],
    ['sqlite: slow p99', 'not met'],
    ['sqlite: few', 'not met'],
  ]);
  expect(table(figures)).toContain('| sqlite: fast');
  expect(table(figures)).toContain('0.15x');
});

test('a figure under the heavy loop is judged by the median ratio of its rounds, not by the ratio of the means', () => {
  const busy: Row = { name: '/healthz while 2 clients loop heavy list', kind: 'busy', r: load(600), against: health, alone: load(1000), ratio: 0.72 };
  const [figure] = listFigures({ rows: 20_000, byDialect: new Map([['postgres', [busy]]]) });
  expect(verdict(figure)).toBe('met');
  expect(table([figure])).toContain('0.72x');
});

test('a dialect whose run failed is one failed row, counted against the goals met', () => {
  const figures = listFigures({ rows: 20_000, byDialect: new Map<'sqlite' | 'postgres', Row[] | string>([['sqlite', [list('fast', 2000, 3)]], ['postgres', 'connect ECONNREFUSED 127.0.0.1:5432']]) });
  expect(figures.map(verdict)).toEqual(['met', 'failed']);
  expect(table(figures)).toContain('failed: connect ECONNREFUSED');
  expect(table(figures).split('\n').at(-1)).toBe('1 of 2 figures with a goal meet it (1 failed to measure)');
});

test('JS to the login screen must be both at most half of react-admin and at most 155 kB', () => {
  const figures = (kB: number): Figures => ({ jsLogin: kB * 1024, jsList: 0, loginToRows: 0, loginToRowsPaused: 0, edit: 0, rows500: 0, rows500Click: 0, expand: 0 });
  const login = (ours: number, theirs: number) => clientTable({ ours: figures(ours), reactAdmin: figures(theirs), gridFloor: { js: 0, rows500: 0 } })[0];
  expect(verdict(login(150, 310))).toBe('met');
  expect(verdict(login(160, 400))).toBe('not met');
  expect(verdict(login(140, 252))).toBe('not met');
});

test("the grid alone is shown under the panel's JS to a list and 500 rows as references, not counted as goals", () => {
  const of = (jsKb: number, rows500: number): Figures => ({ jsLogin: 0, jsList: jsKb * 1024, loginToRows: 0, loginToRowsPaused: 0, edit: 0, rows500, rows500Click: 0, expand: 0 });
  const figures = clientTable({ ours: of(288, 150), reactAdmin: of(252, 1500), gridFloor: { js: 232 * 1024, rows500: 75 } });
  const under = (name: string) => figures[figures.findIndex((f) => f.name === `client: ${name}`) + 1];
  expect(under('JS to a list (App Info, through login)')).toMatchObject({ name: expect.stringContaining('the grid alone'), value: 232, unit: 'kB' });
  expect(under('500 rows: response to paint')).toMatchObject({ name: expect.stringContaining('the grid alone'), value: 75, unit: 'ms' });
  expect(figures.filter((f) => f.name.includes('the grid alone')).map(verdict)).toEqual(['no goal', 'no goal']);
  expect(table(figures).split('\n').at(-1)).toMatch(/^2 of 7 figures with a goal/);
});

test('an IP import the server refused is a failed row, not a fast one', () => {
  const server = (answer: string) => ({ tree: 'after', dialect: 'sqlite' as const, lines: 1000, figures: { answer, seconds: 1, worstHealthMs: 3, medianHealthMs: 1, idleWorstMs: 2, mainCpuSeconds: 0.1 } });
  const [ok, refused] = ipImportFigures({ panel: [], server: [server('200 {"result":true'), server('413 {"result":false')] });
  expect(verdict(ok)).toBe('no goal');
  expect(verdict(refused)).toBe('failed');
});
