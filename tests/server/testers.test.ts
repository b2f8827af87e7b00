// Tester lists: IP addresses (form calls and the file import's addArray) and testers phones, on both dialects.
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect } from './harness.ts';

forEachDialect('tester IP addresses', (h) => {
  const add = (query: Record<string, string>, token = h.tokens.admin) => h.call('GET', '/v1/admin/testersIP/add', { query, token });
  const addArray = (body: unknown, token = h.tokens.admin) => h.call('POST', '/v1/admin/testersIP/addArray', { body, token });

  it('lets a tester add, edit, filter and remove an address', async () => {
    const created = await add({ ip: '10.1.2.3/32', vendor: 'samsung', description: 'lab TV' }, h.tokens.tester);
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ ip: '10.1.2.3/32', vendor: 'samsung', description: 'lab TV' });
    const id = created.body.data.id;
    const edited = await h.call('GET', '/v1/admin/testersIP/edit', { query: { id, vendor: 'lg' }, token: h.tokens.tester });
    expect(edited.body.data).toMatchObject({ ip: '10.1.2.3/32', vendor: 'lg' });
    const found = await h.call('GET', '/v1/admin/testersIP/get', { query: { vendor: 'lg', ip: '10.1.2' }, token: h.tokens.tester });
    expect(found.body.data.rows.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await h.call('GET', '/v1/admin/testersIP/remove', { query: { id }, token: h.tokens.tester })).status).toBe(200);
    expect((await h.admin('GET', '/v1/admin/testersIP/get', { query: { ip: '10.1.2.3' } })).body.data.count).toBe(0);
  });

  it.each([
    [{ ip: '256.1.1.1', vendor: 'lg' }, 'IP must be an IPv4 address a.b.c.d (each part 0-255) with an optional /mask of 0-32'],
    [{ ip: '1.2.3.4/33', vendor: 'lg' }, 'IP must be'],
    [{ ip: '1.2.3', vendor: 'lg' }, 'IP must be'],
    [{ ip: '1.2.3.4', vendor: 'nokia' }, 'Vendor must be one of: samsung, lg, custom'],
    [{ ip: '1.2.3.4' }, 'Vendor is required'],
    [{ ip: '1.2.3.4', vendor: 'lg', colour: 'red' }, 'colour is not an accepted field'],
  ])('refuses to add %j with a 400 naming %s and stores nothing', async (query, field) => {
    const before = await h.count('tester_ips');
    const reply = await add(query as Record<string, string>);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain(field);
    expect(await h.count('tester_ips')).toBe(before);
  });

  it('stores a single address given without a mask with /32, on add and on edit, like the import does', async () => {
    const created = await add({ ip: '10.7.7.7', vendor: 'lg' });
    expect(created.body.data.ip).toBe('10.7.7.7/32');
    const edited = await h.admin('GET', '/v1/admin/testersIP/edit', { query: { id: created.body.data.id, ip: '10.7.7.8' } });
    expect(edited.body.data.ip).toBe('10.7.7.8/32');
  });

  it('imports a list in one call, adding /32 where no mask is given', async () => {
    const reply = await addArray({ ips: [{ ip: '20.0.0.1', vendor: 'samsung' }, { ip: '20.0.1.0/24', vendor: 'lg' }] });
    expect(reply.body).toEqual({ result: true, data: { count: 2 } });
    const rows = (await h.admin('GET', '/v1/admin/testersIP/get', { query: { ip: '20.0.' } })).body.data.rows;
    expect(rows.map((r: { ip: string; vendor: string }) => [r.ip, r.vendor])).toEqual([['20.0.0.1/32', 'samsung'], ['20.0.1.0/24', 'lg']]);
  });

  it('refuses an import with garbage lines, names each bad line and stores nothing', async () => {
    const before = await h.count('tester_ips');
    const reply = await addArray({
      ips: [
        { ip: '30.0.0.1/32', vendor: 'lg' },
        { ip: '256.1.1.1', vendor: 'lg' },
        { ip: '30.0.0.2', vendor: 'lg' },
        { ip: '1.2.3.4/33', vendor: 'lg' },
        { ip: '1.2.3', vendor: 'samsung' },
        { ip: '30.0.0.3', vendor: 'custom' },
        { ip: '30.0.0.4', vendor: 'lg', note: 'x' },
        'hello',
      ],
    });
    expect(reply.status).toBe(400);
    expect(reply.body.result).toBe(false);
    for (const line of ['line 2: ip "256.1.1.1"', 'line 4: ip "1.2.3.4/33"', 'line 5: ip "1.2.3"', 'line 6: vendor "custom"', 'line 7: note', 'line 8:']) {
      expect(reply.body.message).toContain(line);
    }
    expect(reply.body.message).not.toContain('line 1:');
    expect(reply.body.message).not.toContain('line 3:');
    expect(await h.count('tester_ips')).toBe(before);
  });

  it.each([
    [{}, 'ips is required'],
    [{ ips: [] }, 'ips'],
    [{ ips: '1.2.3.4' }, 'ips'],
    [{ ips: [{ ip: '1.2.3.4', vendor: 'lg' }], vendor: 'lg' }, 'vendor is not an accepted field'],
  ])('refuses the import body %j with a 400', async (body, message) => {
    const reply = await addArray(body);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain(message);
  });

  it('imports 100,000 addresses in one call and logs one write', async () => {
    const ips = Array.from({ length: 100_000 }, (_, i) => ({ ip: `40.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, vendor: 'lg' }));
    const logs = await h.count('user_logs');
    const stored = await h.count('tester_ips');
    const reply = await addArray({ ips });
    expect(reply.body).toEqual({ result: true, data: { count: 100_000 } });
    expect(await h.count('tester_ips')).toBe(stored + 100_000);
    // The list counts exactly up to LIST_COUNT_LIMIT and says "more" beyond it.
    expect((await h.admin('GET', '/v1/admin/testersIP/get', { query: { ip: '40.', pageSize: 1 } })).body.data).toMatchObject({ count: 10_000, countCapped: true });
    expect(await h.count('user_logs')).toBe(logs + 1);
    const log = await h.app.engine.db.selectFrom('user_logs').select(['userEmail', 'baseUrl', 'routePath']).orderBy('id', 'desc').limit(1).executeTakeFirst();
    expect(log).toEqual({ userEmail: 'admin@test.io', baseUrl: '/v1/admin/testersIP', routePath: 'addArray' });
  });

  it('refuses a body nested thousands of levels deep with a 400, at the top or inside the list, and stores nothing', async () => {
    const before = await h.count('tester_ips');
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const bodies = [deep(5000), `{"ips":${deep(5000)}}`, `{"ips":[${deep(3000)}]}`, `{"ips":[],"other":${deep(5000)}}`];
    for (const body of bodies) {
      const reply = await h.admin('POST', '/v1/admin/testersIP/addArray', { body, headers: { 'content-type': 'application/json' } });
      expect(reply.status, body.slice(0, 12)).toBe(400);
    }
    expect(await h.count('tester_ips')).toBe(before);
  });

  // Duplicates are refused as duplicates, naming them (issue 35): tests/server/ip-import.test.ts.
  it('stores 45,000 addresses over several statements exactly as sent: /32 added, the same answer', async () => {
    const ips = Array.from({ length: 45_000 }, (_, i) => ({ ip: `50.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}${i % 2 ? '/32' : ''}`, vendor: i % 3 ? 'lg' : 'samsung' }));
    const reply = await addArray({ ips });
    expect(reply.body).toEqual({ result: true, data: { count: 45_000 } });
    const stored = await h.app.engine.db.selectFrom('tester_ips').select(['ip', 'vendor']).where('ip', 'like', '50.%').execute();
    const key = (r: { ip: string; vendor: string }) => `${r.ip} ${r.vendor}`;
    const expected = ips.map((r) => key({ ip: r.ip.includes('/') ? r.ip : `${r.ip}/32`, vendor: r.vendor })).sort();
    expect(stored.map((r) => key(r as { ip: string; vendor: string })).sort()).toEqual(expected);
  });

  it('refuses 45,000 addresses whose last ones are bad, naming them, and stores none', async () => {
    const before = await h.count('tester_ips');
    const ips: unknown[] = Array.from({ length: 45_000 }, (_, i) => ({ ip: `60.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, vendor: 'lg' }));
    ips[44_998] = { ip: '60.0.0.300', vendor: 'lg' };
    ips[44_999] = { ip: '60.0.0.1', vendor: 'custom' };
    const reply = await addArray({ ips });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(
      'ips: 2 bad entries, nothing stored: line 44999: ip "60.0.0.300" is not an IPv4 address with an optional /mask of 0-32; line 45000: vendor "custom" must be samsung or lg',
    );
    expect(await h.count('tester_ips')).toBe(before);
  });

  it('answers other requests while a 100,000-address import is being checked and stored, and no read sees half of it', async () => {
    const before = await h.count('tester_ips');
    const ips = Array.from({ length: 100_000 }, (_, i) => ({ ip: `70.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, vendor: 'samsung' }));
    let imported = false;
    const importing = addArray({ ips }).then((reply) => ((imported = true), reply));
    // A timer that fires at all before the import ends shows the event loop was free meanwhile.
    const answeredMeanwhile: boolean[] = [];
    const seen = new Set<number>();
    let other: Promise<{ status: number }> | undefined;
    while (!imported) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const health = await h.call('GET', '/healthz');
      expect(health.status).toBe(200);
      answeredMeanwhile.push(!imported);
      // Another write meanwhile waits for the import or goes beside it; it is never lost or refused.
      other ??= add({ ip: '71.0.0.1', vendor: 'lg' });
      seen.add((await h.count('tester_ips')) - before);
    }
    expect((await importing).body).toEqual({ result: true, data: { count: 100_000 } });
    expect((await other!).status).toBe(200);
    expect(answeredMeanwhile.filter(Boolean).length).toBeGreaterThan(0);
    expect(await h.count('tester_ips')).toBe(before + 100_001);
    // Before it, or all of it (with or without the other write): never a part.
    for (const count of seen) expect([0, 1, 100_000, 100_001]).toContain(count);
  });

  it('stores nothing of an import that fails while it is being stored, and imports again afterwards', async () => {
    const before = await h.count('tester_ips');
    const logs = await h.count('user_logs');
    // The database refuses one row of the third statement, as a failing disk or a lost connection would.
    const refuse = '80.0.22.100/32';
    if (h.dialect === 'sqlite') {
      await sql.raw(`create trigger refuse_one before insert on tester_ips when new.ip = '${refuse}' begin select raise(abort, 'refused by the test'); end`).execute(h.app.engine.db);
    } else {
      await sql.raw(`create function refuse_one() returns trigger language plpgsql as $$ begin if new.ip = '${refuse}' then raise exception 'refused by the test'; end if; return new; end $$`).execute(h.app.engine.db);
      await sql.raw('create trigger refuse_one before insert on tester_ips for each row execute function refuse_one()').execute(h.app.engine.db);
    }
    const ips = Array.from({ length: 10_000 }, (_, i) => ({ ip: `80.0.${i >> 8}.${i & 255}`, vendor: 'lg' }));
    const failed = await addArray({ ips });
    expect(failed.status).toBe(500);
    expect(await h.count('tester_ips')).toBe(before);
    expect(await h.count('user_logs')).toBe(logs);
    await sql.raw('drop trigger refuse_one' + (h.dialect === 'sqlite' ? '' : ' on tester_ips')).execute(h.app.engine.db);
    expect((await addArray({ ips })).body).toEqual({ result: true, data: { count: 10_000 } });
    expect(await h.count('tester_ips')).toBe(before + 10_000);
    if (h.dialect === 'sqlite') {
      // The automatic checkpoint, off while an import runs, is back once the checkpoint after it is done.
      const autocheckpoint = async () => Number((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(h.app.engine.db)).rows[0].wal_autocheckpoint);
      for (let tries = 0; tries < 100 && (await autocheckpoint()) !== 1000; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await autocheckpoint()).toBe(1000);
    }
  });

  it('refuses the import to a customercare user', async () => {
    expect((await addArray({ ips: [{ ip: '1.1.1.1', vendor: 'lg' }] }, h.tokens.customercare)).status).toBe(403);
  });
});

forEachDialect('testers phones', (h) => {
  const add = (body: unknown, token = h.tokens.tester) => h.call('POST', '/v1/admin/testersPhones/add', { body, token });
  const wl: number[] = [];
  beforeAll(async () => {
    for (const name of ['phones-a', 'phones-b', 'phones-c', 'phones-d']) {
      wl.push((await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm(name) })).body.data.id);
    }
  });

  it('lets a tester keep one phone list per whitelabel and edit it', async () => {
    const created = await add({ whitelabelId: wl[0], phones: ['+100', '+200'], isActive: true });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ whitelabelId: wl[0], whitelabel: { name: 'phones-a' }, phones: ['+100', '+200'], isActive: true });
    const edited = await h.call('POST', '/v1/admin/testersPhones/edit', {
      body: { id: created.body.data.id, phones: ['+300'], isActive: false },
      token: h.tokens.tester,
    });
    expect(edited.body.data).toMatchObject({ whitelabelId: wl[0], phones: ['+300'], isActive: false });
    const found = await h.call('GET', '/v1/admin/testersPhones/get', { query: { whitelabelId: wl[0] }, token: h.tokens.tester });
    expect(found.body.data.rows).toHaveLength(1);
    expect(found.body.data.rows[0].phones).toEqual(['+300']);
  });

  it('refuses a second record for the same whitelabel with 409', async () => {
    await add({ whitelabelId: wl[1], phones: ['+1'] });
    const again = await add({ whitelabelId: wl[1], phones: ['+2'] });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Whitelabel id is already taken');
  });

  it.each([
    [{ phones: ['+1'] }, 'Whitelabel id is required'],
    [{ whitelabelId: 99999, phones: ['+1'] }, 'Whitelabel id: there is no whitelabel with id 99999'],
    [{ whitelabelId: 9, phones: [] }, 'Phones must hold at least one item'],
    [{ whitelabelId: 9, phones: ['+1', ''] }, 'Phones, item 2, must not be empty'],
    [{ whitelabelId: 9 }, 'Phones is required'],
    [{ whitelabelId: 'nine', phones: ['+1'] }, 'Whitelabel id must be a whole number'],
    [{ whitelabelId: 9, phones: [5] }, 'Phones, item 1, must be text'],
    [{ whitelabelId: 9, phones: ['+1'], owner: 'x' }, 'owner is not an accepted field'],
  ])('refuses %j with a 400 naming %s and stores nothing', async (body, field) => {
    const before = await h.count('testers_phones');
    const reply = await add(body);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain(field);
    expect(await h.count('testers_phones')).toBe(before);
  });

  it('deletes a record with DELETE remove', async () => {
    const id = (await add({ whitelabelId: wl[3], phones: ['+1'] })).body.data.id;
    expect((await h.call('DELETE', '/v1/admin/testersPhones/remove', { query: { id }, token: h.tokens.tester })).status).toBe(200);
    expect((await h.admin('GET', '/v1/admin/testersPhones/get', { query: { whitelabelId: wl[3] } })).body.data.count).toBe(0);
  });
});
