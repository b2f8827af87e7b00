// Brute force really limited, and no lockout of the real user: every attempt is counted before its password is
// hashed, so a parallel burst gets no more guesses than a patient guesser; past the free attempts each guess
// must wait (Retry-After on every 429) instead of the account being locked; e-mails are one address whatever
// their case. A flood of anonymous wrong logins is refused with 429 past its lane, never 503, while staff calls,
// known addresses and a first-time login go on; one account takes at most 100 guesses an hour however spread.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { DEFAULT_LIMITS, LoginThrottle } from '../../server/plugins/rate-limit.ts';
import { forEachDialect, ADMIN, type Harness } from './harness.ts';

/** One login through inject, with its headers (Retry-After). */
async function attempt(h: Harness, email: string, password: string, remoteAddress: string) {
  const response = await h.app.inject({ method: 'POST', url: '/v1/user/login', payload: { email, password }, remoteAddress });
  return { status: response.statusCode, retryAfter: response.headers['retry-after'], body: response.json() as { result: boolean; message?: string } };
}

forEachDialect('login limits', (h) => {
  it('slows down instead of locking: after Retry-After the right password works from the guessed address too', async () => {
    await h.admin('GET', '/v1/admin/user/add', { query: { email: 'patient@test.io', password: 'right-pass-1', role: 'developer' } });
    for (let i = 0; i < 5; i++) expect((await attempt(h, 'patient@test.io', 'wrong', '10.11.0.1')).status).toBe(401);
    const slowed = await attempt(h, 'patient@test.io', 'right-pass-1', '10.11.0.1');
    expect(slowed).toMatchObject({ status: 429, retryAfter: '1' });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await attempt(h, 'patient@test.io', 'wrong', '10.11.0.1')).status).toBe(401);
    // Each further failure doubles the wait: refused a second after it, let in two seconds after it. (Its Retry-After,
    // a count of whole seconds left, reads 1 instead of 2 when the machine took a while to answer that failure.)
    const failedAt = Date.now();
    const again = await attempt(h, 'patient@test.io', 'right-pass-1', '10.11.0.1');
    expect(again.status).toBe(429);
    expect(['1', '2']).toContain(again.retryAfter);
    await new Promise((r) => setTimeout(r, failedAt + 1100 - Date.now()));
    expect((await attempt(h, 'patient@test.io', 'right-pass-1', '10.11.0.1')).status).toBe(429);
    await new Promise((r) => setTimeout(r, failedAt + 2100 - Date.now()));
    expect((await attempt(h, 'patient@test.io', 'right-pass-1', '10.11.0.1')).status).toBe(200);
  });

  it('treats e-mails as one address whatever their case: unique on add, and any case logs in', async () => {
    const first = await h.admin('GET', '/v1/admin/user/add', { query: { email: 'Case.Person@Test.io', password: 'right-pass-1', role: 'tester' } });
    expect(first.status).toBe(200);
    const again = await h.admin('GET', '/v1/admin/user/add', { query: { email: 'case.person@test.io', password: 'other-pass-1', role: 'admin' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Email is already taken');
    expect((await attempt(h, 'CASE.PERSON@TEST.IO', 'right-pass-1', '10.14.0.1')).status).toBe(200);
    expect((await h.admin('GET', '/v1/admin/testersEmails/add', { query: { email: 'Tester@Test.io' } })).status).toBe(200);
    expect((await h.admin('GET', '/v1/admin/testersEmails/add', { query: { email: 'tester@TEST.io' } })).status).toBe(409);
  });

  it('refuses to start on a database whose e-mails differ only in case, naming them', async () => {
    await sql`drop index uxci_users_email`.execute(h.app.engine.db);
    const now = new Date().toISOString();
    await h.app.engine.db
      .insertInto('users')
      .values([
        { email: 'Twin@Test.io', role: 'tester', passwordHash: 'x', createdAt: now, updatedAt: now },
        { email: 'twin@test.io', role: 'tester', passwordHash: 'x', createdAt: now, updatedAt: now },
      ])
      .execute();
    const again = buildApp({
      config: {
        dataDir: h.app.engine.dataDir,
        databaseUrl: h.databaseUrl,
        schemasDir: resolve('schemas'),
        distDir: join(mkdtempSync(join(tmpdir(), 'panel-test-')), 'no-dist'),
        corsOrigins: [],
      },
    });
    await expect(again).rejects.toThrow(/users\.email must be unique regardless of case.*"Twin@Test\.io" \(2 rows\)/);
  });
});

// A long first wait, so a slow machine cannot let a refusal's wait run out before the next attempt (the burst's tail
// through by simply outlasting it, an address's next guess after a one-second stall).
forEachDialect(
  'login limits with a long first wait',
  (h) => {
    it('slows an address that sprays many accounts, and only that address', async () => {
      for (let i = 0; i < 20; i++) expect((await attempt(h, `spray${i}@test.io`, 'wrong', '10.12.0.1')).status).toBe(401);
      const refused = await attempt(h, ADMIN.email, ADMIN.password, '10.12.0.1');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect((await attempt(h, ADMIN.email, ADMIN.password, '10.12.0.2')).status).toBe(200);
    });

    it('counts an IPv6 host by its /64, so rotating addresses inside it buys no guesses', async () => {
      for (let i = 0; i < 5; i++) expect((await attempt(h, 'v6@test.io', 'wrong', `2001:db8:1:2::${i + 1}`)).status).toBe(401);
      expect((await attempt(h, 'v6@test.io', 'wrong', '2001:db8:1:2:ffff::9')).status).toBe(429);
    });

    it('slows guesses on one account spread over many addresses, except from an address its user logged in from', async () => {
      await h.admin('GET', '/v1/admin/user/add', { query: { email: 'spread@test.io', password: 'right-pass-1', role: 'tester' } });
      expect((await attempt(h, 'spread@test.io', 'right-pass-1', '10.13.9.9')).status).toBe(200);
      for (let i = 0; i < 20; i++) expect((await attempt(h, 'spread@test.io', 'wrong', `10.13.0.${i}`)).status).toBe(401);
      expect((await attempt(h, 'spread@test.io', 'right-pass-1', '10.13.1.1')).status).toBe(429);
      expect((await attempt(h, 'spread@test.io', 'right-pass-1', '10.13.9.9')).status).toBe(200);
    });

    it('checks at most five passwords of a 200-guess parallel burst on one account, the right one inside it included', async () => {
      await h.admin('GET', '/v1/admin/user/add', { query: { email: 'burst@test.io', password: 'right-pass-1', role: 'developer' } });
      const guesses = Array.from({ length: 200 }, (_, i) => (i === 120 ? 'right-pass-1' : `guess-${i}`));
      const replies = await Promise.all(guesses.map((password) => attempt(h, 'burst@test.io', password, '10.10.0.1')));
      const checked = replies.filter((r) => r.status !== 429);
      expect(checked.length).toBeLessThanOrEqual(5);
      expect(replies[120].status).toBe(429);
      for (const r of replies.filter((x) => x.status === 429)) {
        expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(r.body.message).toMatch(/try again in \d+ s/);
      }
      // The real user, from their own address, is not locked out by the burst.
      expect((await attempt(h, 'burst@test.io', 'right-pass-1', '10.10.0.2')).status).toBe(200);
    });
  },
  { loginLimits: { ...DEFAULT_LIMITS, baseDelayMs: 60_000 } },
);

const FLOOD = 1000;
const FLOOD_LOOPS = 200;

forEachDialect('login limits under a flood of anonymous wrong logins', (h) => {
  it('answers the flood 429 (never 503) while staff calls, known addresses and a first-time login get in', async () => {
    await h.admin('GET', '/v1/admin/user/add', { query: { email: 'regular@test.io', password: 'right-pass-1', role: 'developer' } });
    await h.admin('GET', '/v1/admin/user/add', { query: { email: 'newcomer@test.io', password: 'right-pass-1', role: 'tester' } });
    expect((await attempt(h, 'regular@test.io', 'right-pass-1', '10.40.9.9')).status).toBe(200);
    // Rotating addresses, against the admin, the regular user and accounts that do not exist.
    const flood: { status: number; retryAfter?: string | string[] }[] = [];
    let sent = 0;
    const guesser = async () => {
      while (sent < FLOOD) {
        const i = sent++;
        const email = i % 3 === 0 ? ADMIN.email : i % 3 === 1 ? 'regular@test.io' : `nobody${i}@test.io`;
        flood.push(await attempt(h, email, `guess-${i}`, `10.50.${i >> 8}.${i & 255}`));
      }
    };
    const flooding = Promise.all(Array.from({ length: FLOOD_LOOPS }, guesser));
    let done = false;
    void flooding.then(() => (done = true));
    const staff: number[] = [];
    const staffLoop = (async () => {
      do staff.push((await h.admin('GET', '/v1/admin/user/get', { query: { page: 1, pageSize: 20 } })).status);
      while (!done);
    })();
    const admin = await attempt(h, ADMIN.email, ADMIN.password, '127.0.0.1');
    const regular = await attempt(h, 'regular@test.io', 'right-pass-1', '10.40.9.9');
    // A first address for this account competes for the anonymous lane: it waits as Retry-After says.
    let newcomer = await attempt(h, 'newcomer@test.io', 'right-pass-1', '10.60.0.1');
    for (let tries = 0; newcomer.status === 429 && tries < 20; tries++) {
      await new Promise((r) => setTimeout(r, Number(newcomer.retryAfter) * 1000));
      newcomer = await attempt(h, 'newcomer@test.io', 'right-pass-1', '10.60.0.1');
    }
    await Promise.all([flooding, staffLoop]);
    expect(admin.status).toBe(200);
    expect(regular.status).toBe(200);
    expect(newcomer.status).toBe(200);
    expect(flood).toHaveLength(FLOOD);
    expect(flood.filter((r) => r.status !== 401 && r.status !== 429)).toEqual([]);
    expect(flood.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    for (const r of flood.filter((x) => x.status === 429)) expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(staff.length).toBeGreaterThan(0);
    expect(staff.filter((s) => s !== 200)).toEqual([]);
  });

  it('lets one account take at most 100 guesses in any hour from rotating addresses, and its owner in at once', async () => {
    await h.admin('GET', '/v1/admin/user/add', { query: { email: 'capped@test.io', password: 'right-pass-1', role: 'tester' } });
    expect((await attempt(h, 'capped@test.io', 'right-pass-1', '10.71.0.1')).status).toBe(200);
    // A guesser who tries again every second of two hours, each time from a new address (the clock is the test's).
    const throttle = new LoginThrottle(h.app.engine.db, { ...DEFAULT_LIMITS, flushMs: 1 });
    const start = Date.now();
    const guesses: number[] = [];
    for (let now = start, i = 0; now < start + 2 * 3_600_000; now += 1000, i++) {
      const reservation = await throttle.reserve('capped@test.io', `10.70.${(i >> 8) & 255}.${i & 255}`, now);
      if (reservation.ok) {
        guesses.push(now);
        await reservation.failed();
      }
    }
    await throttle.close();
    const busiestHour = Math.max(...guesses.map((t) => guesses.filter((u) => u >= t && u < t + 3_600_000).length));
    expect(busiestHour).toBeGreaterThan(50);
    expect(busiestHour).toBeLessThanOrEqual(100);
    // The account is saturated for new addresses, not for its owner's.
    expect((await attempt(h, 'capped@test.io', 'right-pass-1', '10.72.0.1')).status).toBe(429);
    expect((await attempt(h, 'capped@test.io', 'right-pass-1', '10.71.0.1')).status).toBe(200);
  });
});
