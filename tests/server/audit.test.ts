// Audit that helps a reviewer: calls refused with 403 are logged with who tried what; failed and refused logins
// are logged without an anonymous caller being able to grow the log without bound (rows past the budget become
// one summary row); what is stored cannot forge a log line.
import { expect, it } from 'vitest';
import { logSafe } from '../../server/plugins/audit.ts';
import { FAILED_LOGIN_ROWS } from '../../server/plugins/auth.ts';
import { forEachDialect, ADMIN, emailOf, type Harness } from './harness.ts';

type LogRow = { id: number; userId: number | null; userEmail: string | null; baseUrl: string; routePath: string; outcome: string | null; detail: string | null; entity: string | null; recordId: number | null };

const logs = async (h: Harness, baseUrl: string): Promise<LogRow[]> =>
  (await h.admin('GET', '/v1/admin/userlogs/get', { query: { baseUrl, pageSize: 1000 } })).body.data.rows;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('writes a value as one visible line: breaks, controls and text-reordering characters escaped', () => {
  expect(logSafe('a@b.io\r\n2025-01-01 admin@x.io login')).toBe('a@b.io\\r\\n2025-01-01 admin@x.io login');
  expect(logSafe('evil\u202egpj.exe\u0000\u2028')).toBe('evil\\u202egpj.exe\\u0000\\u2028');
  expect(logSafe('x'.repeat(600))).toHaveLength(500);
});

forEachDialect('audit', (h) => {
  it('logs a call refused with 403 under its declared path, with who tried it', async () => {
    expect((await h.call('GET', '/v1/admin/user/get', { token: h.tokens.tester })).status).toBe(403);
    expect((await h.call('GET', '/v1/admin/platform/destroy', { token: h.tokens.customercare, query: { id: 1 } })).status).toBe(403);
    await sleep(100);
    // Each row is written after its answer went out, so two refusals a moment apart may commit in either order.
    const refused = (await logs(h, '/v1/admin')).filter((r) => r.outcome === 'refused');
    const seen = refused.slice(0, 2).map((r) => [r.userEmail, `${r.baseUrl}/${r.routePath}`, r.detail]);
    expect(seen.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      [emailOf('customercare'), '/v1/admin/platform/destroy', 'GET refused: the role customercare may not use this call'],
      [emailOf('tester'), '/v1/admin/user/get', 'GET refused: the role tester may not use this call'],
    ]);
  });

  it('names the entity and record a write touched', async () => {
    const added = await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'audited', maxVersion: '01.02.03' } });
    const row = (await logs(h, '/v1/admin/platform')).find((r) => r.routePath === 'add');
    expect(row).toMatchObject({ entity: 'platform', recordId: added.body.data.id, outcome: null, userEmail: ADMIN.email });
  });

  it('keeps a burst of 300 anonymous login attempts from one address to a budget of rows', async () => {
    const before = (await logs(h, '/v1/user')).length;
    await Promise.all(Array.from({ length: 300 }, (_, i) => h.login('victim@test.io', `guess-${i}`, '10.20.0.1')));
    const rows = (await logs(h, '/v1/user')).slice(0, (await logs(h, '/v1/user')).length - before);
    expect(rows.length).toBeLessThanOrEqual(FAILED_LOGIN_ROWS.perKey);
    expect(rows.every((r) => r.detail === 'from 10.20.0.1' && (r.outcome === 'failed' || r.outcome === 'throttled'))).toBe(true);
  });

  it('stores a tried e-mail with line breaks and bidi controls as one visible line', async () => {
    const forged = 'x@y.io\n2025-01-01T00:00:00Z admin@test.io login\u202e<b>';
    expect((await h.login(forged, 'wrong-pass', '10.21.0.1')).status).toBe(401);
    const row = (await logs(h, '/v1/user')).find((r) => r.detail === 'from 10.21.0.1')!;
    expect(row.userEmail).toBe('x@y.io\\n2025-01-01t00:00:00z admin@test.io login\\u202e<b>');
    expect(row.userEmail).not.toMatch(/[\n\r\u202e]/);
  });
});

const WINDOW_MS = 2000;

forEachDialect(
  'audit budget',
  (h) => {
    it('writes every failed login from many addresses either as a row or into a summary row, within the budget', async () => {
      const started = Date.now();
      await Promise.all(Array.from({ length: 25 }, (_, i) => h.login(`nobody${i}@test.io`, 'wrong-pass', `10.30.0.${i}`)));
      // Fixed windows: a burst of this length touches at most this many of them.
      const windows = 1 + Math.floor((Date.now() - started) / WINDOW_MS);
      await sleep(WINDOW_MS + 300);
      const rows = await logs(h, '/v1/user');
      const failed = rows.filter((r) => r.outcome === 'failed');
      const summaries = rows.filter((r) => r.outcome === 'suppressed');
      expect(failed.length).toBeLessThanOrEqual(10 * windows);
      expect(summaries.length).toBeGreaterThan(0);
      const summarized = summaries.reduce((n, r) => n + Number(/^(\d+) more failed or refused logins from \d+ addresses/.exec(r.detail ?? '')![1]), 0);
      expect(failed.length + summarized).toBe(25);
    });
  },
  // A queue that takes the whole burst: every login is checked and fails (none refused for the lane being full).
  { loginLimits: { perAccount: 5, perAddress: 20, windowMs: 900_000, anonymousLane: { concurrency: 1, queue: 32 }, failedLoginRows: { perKey: 3, overall: 10, windowMs: WINDOW_MS } } },
);
