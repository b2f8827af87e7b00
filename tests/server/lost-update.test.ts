// No lost update: an edit, toggle or delete that carries the updatedAt it was made from is refused with 409 once
// the record has changed since, naming who changed it and when and carrying the current record; an edit without
// it (an old client) still works. Of many such calls sent at once over HTTP from one version, exactly one is
// written (and logged); a bulk delete racing itself logs each record it removed once.
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';
import { ADMIN, forEachDialect, type Harness } from './harness.ts';

const SECOND = { email: 'second.admin@test.io', password: 'second-admin-1' };
const staleOf = (reply: { body: unknown }) => (reply.body as { stale: { changedBy: string | null; record: Record<string, unknown> } }).stale;
/** How many calls race in one round, and how many rounds each case runs. */
const RACERS = 20;
const ROUNDS = 5;

interface Answer {
  status: number;
  body: { data?: any; message?: string; code?: string; stale?: { changedBy: string | null; changedAt: string | null; record: Record<string, unknown> } };
}

forEachDialect('lost updates', (h: Harness) => {
  let second = '';
  beforeAll(async () => {
    await h.admin('GET', '/v1/admin/user/add', { query: { ...SECOND, role: 'admin' } });
    second = (await h.login(SECOND.email, SECOND.password)).body.data.token;
  });
  const addPlatform = async (name: string) => (await h.admin('GET', '/v1/admin/platform/add', { query: { name, maxVersion: '01.00.00' } })).body.data;

  it('refuses the stale one of two edits from the same version, naming who changed the record and when', async () => {
    const opened = await addPlatform('contested');
    const first = await h.call('GET', '/v1/admin/platform/edit', { token: second, query: { id: opened.id, maxVersion: '02.00.00', updatedAt: opened.updatedAt } });
    expect(first.status).toBe(200);
    const stale = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '03.00.00', updatedAt: opened.updatedAt } });
    expect(stale.status).toBe(409);
    const at = first.body.data.updatedAt as string;
    expect(stale.body.message).toBe(
      `This platform (id ${opened.id}) was changed by ${SECOND.email} at ${at.slice(0, 10)} ${at.slice(11, 19)} UTC after you opened it. Reload it to see the changes, then make yours again.`,
    );
    expect(stale.body).toMatchObject({ result: false, stale: { changedBy: SECOND.email, changedAt: at, record: { id: opened.id, maxVersion: '02.00.00', updatedAt: at } } });
    const stored = (await h.admin('GET', '/v1/admin/platform/get', { query: { pageSize: 1000 } })).body.data.rows.find((r: { id: number }) => r.id === opened.id);
    expect(stored.maxVersion).toBe('02.00.00');
  });

  it('accepts the edit again once it is made from the current version', async () => {
    const opened = await addPlatform('reloaded');
    const changed = await h.call('GET', '/v1/admin/platform/edit', { token: second, query: { id: opened.id, maxVersion: '02.00.00', updatedAt: opened.updatedAt } });
    const retried = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '03.00.00', updatedAt: changed.body.data.updatedAt } });
    expect(retried.status).toBe(200);
    expect(retried.body.data.maxVersion).toBe('03.00.00');
  });

  it('keeps edits of old clients that send no version working', async () => {
    const opened = await addPlatform('oldclient');
    await h.call('GET', '/v1/admin/platform/edit', { token: second, query: { id: opened.id, maxVersion: '02.00.00' } });
    const blind = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '03.00.00' } });
    expect(blind.status).toBe(200);
  });

  it('moves the version forward on every write, even two in the same millisecond', async () => {
    const opened = await addPlatform('quick');
    const versions = [opened.updatedAt];
    for (let i = 0; i < 5; i++) {
      const reply = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: `0${i}.00.00`, updatedAt: versions[versions.length - 1] } });
      expect(reply.status).toBe(200);
      versions.push(reply.body.data.updatedAt);
    }
    expect(new Set(versions).size).toBe(6);
    expect([...versions].sort()).toEqual(versions);
  });

  it('refuses a stale toggle of an active switch', async () => {
    const wl = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('togglewl') })).body.data;
    const config = (await h.admin('POST', '/v1/admin/wlConfig/add', { form: { whitelabelId: String(wl.id), config: '{"a":1}', isActive: 'true' } })).body.data;
    const flipped = await h.call('POST', '/v1/admin/wlConfig/changeIsActive', { token: second, body: { id: config.id, updatedAt: config.updatedAt } });
    expect(flipped.status).toBe(200);
    const stale = await h.admin('POST', '/v1/admin/wlConfig/changeIsActive', { body: { id: config.id, updatedAt: config.updatedAt } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain(`was changed by ${SECOND.email}`);
    expect(staleOf(stale).record.isActive).toBe(false);
    expect((await h.admin('POST', '/v1/admin/wlConfig/changeIsActive', { body: { id: config.id } })).status).toBe(200);
  });

  it('refuses a stale multipart edit and stores none of its files', async () => {
    const wl = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('multiwl') })).body.data;
    await h.call('POST', '/v1/admin/whitelabel/edit', { token: second, form: { id: String(wl.id), feUrl: 'https://second.example.com/', updatedAt: wl.updatedAt } });
    const stale = await h.admin('POST', '/v1/admin/whitelabel/edit', { form: { id: String(wl.id), feUrl: 'https://first.example.com/', updatedAt: wl.updatedAt } });
    expect(stale.status).toBe(409);
    const rows = (await h.admin('GET', '/v1/admin/whitelabel/get', { query: { pageSize: 1000 } })).body.data.rows;
    expect(rows.find((r: { id: number }) => r.id === wl.id).feUrl).toBe('https://second.example.com/');
  });

  it('refuses a version that is not a time with 400', async () => {
    const opened = await addPlatform('badversion');
    const reply = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '02.00.00', updatedAt: 'yesterday' } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("updatedAt: must be the record's updatedAt as it was read");
  });

  it('names the account of a password change that made an edit stale', async () => {
    const user = (await h.admin('GET', '/v1/admin/user/add', { query: { email: 'pw.stale@test.io', password: 'first-pass-1', role: 'tester' } })).body.data;
    await h.call('GET', '/v1/admin/user/update', { token: second, query: { email: user.email, password: 'second-pass-2', updatedAt: user.updatedAt } });
    const stale = await h.admin('GET', '/v1/admin/user/update', { query: { email: user.email, password: 'third-pass-3', updatedAt: user.updatedAt } });
    expect(stale.status).toBe(409);
    expect(staleOf(stale).changedBy).toBe(SECOND.email);
    expect(staleOf(stale).record).not.toHaveProperty('password');
  });

  describe('calls sent at once from one version', () => {
    let base = '';
    beforeAll(async () => {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    });
    /** One call over a real connection, so that the racers meet in the server as concurrent requests. */
    const send = async (method: string, path: string, data: Record<string, string | number>): Promise<Answer> => {
      const json = method === 'POST';
      const url = json ? base + path : `${base}${path}?${new URLSearchParams(Object.entries(data).map(([k, v]) => [k, String(v)]))}`;
      const headers: Record<string, string> = { authorization: `Bearer ${h.tokens.admin}` };
      if (json) headers['content-type'] = 'application/json';
      const response = await fetch(url, { method, headers, body: json ? JSON.stringify(data) : undefined });
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    };
    const sendForm = async (path: string, form: FormData): Promise<Answer> => {
      const response = await fetch(base + path, { method: 'POST', headers: { authorization: `Bearer ${h.tokens.admin}` }, body: form });
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    };
    const race = (make: (i: number) => Promise<Answer>) => Promise.all(Array.from({ length: RACERS }, (_, i) => make(i)));
    const logOf = async (entity: string, recordId: number, routePath: string) =>
      (await h.admin('GET', '/v1/admin/userlogs/get', { query: { entity, recordId, pageSize: 100 } })).body.data.rows.filter(
        (r: { routePath: string }) => r.routePath === routePath,
      );
    const platformRow = async (id: number) =>
      (await h.admin('GET', '/v1/admin/platform/get', { query: { pageSize: 1000 } })).body.data.rows.find((r: { id: number }) => r.id === id);

    it('writes exactly one of 20 edits from the same version, round after round; the others get the stale 409', async () => {
      const opened = await addPlatform('raced');
      let version = opened.updatedAt as string;
      for (let round = 0; round < ROUNDS; round++) {
        const answers = await race((i) => send('GET', '/v1/admin/platform/edit', { id: opened.id, maxVersion: `${String(round).padStart(2, '0')}.${String(i).padStart(2, '0')}.00`, updatedAt: version }));
        const accepted = answers.filter((a) => a.status === 200);
        expect(accepted.map((a) => a.body.data.maxVersion)).toHaveLength(1);
        const winner = accepted[0].body.data;
        const refused = answers.filter((a) => a.status !== 200);
        expect(refused.map((a) => a.status)).toEqual(Array(RACERS - 1).fill(409));
        for (const stale of refused) {
          expect(stale.body).toMatchObject({ code: 'ERR_CONFLICT', stale: { changedBy: ADMIN.email, changedAt: winner.updatedAt, record: winner } });
          expect(stale.body.message).toBe(
            `This platform (id ${opened.id}) was changed by ${ADMIN.email} at ${winner.updatedAt.slice(0, 10)} ${winner.updatedAt.slice(11, 19)} UTC after you opened it. Reload it to see the changes, then make yours again.`,
          );
        }
        expect(await platformRow(opened.id)).toEqual(winner);
        version = winner.updatedAt;
      }
      expect(await logOf('platform', opened.id, 'edit')).toHaveLength(ROUNDS);
    });

    it('stores only the files of the one multipart edit written of 20 from the same version', async () => {
      const wl = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('racedfiles') })).body.data;
      const styles = join(h.app.engine.dataDir, 'whitelabels', 'racedfiles', 'styles');
      let version = wl.updatedAt as string;
      for (let round = 0; round < ROUNDS; round++) {
        const sheet = (i: number) => `body { background: #${String(round).padStart(2, '0')}${String(i).padStart(2, '0')}30; }\n`;
        const answers = await race((i) => {
          const form = new FormData();
          form.set('id', String(wl.id));
          form.set('updatedAt', version);
          form.set('feUrl', `https://racer${i}.example.com/`);
          form.set('cssConfig', new Blob([sheet(i)], { type: 'text/css' }), 'index.css');
          return sendForm('/v1/admin/whitelabel/edit', form);
        });
        const accepted = answers.filter((a) => a.status === 200);
        expect(accepted).toHaveLength(1);
        expect(answers.filter((a) => a.status === 409)).toHaveLength(RACERS - 1);
        const winner = Number(/racer(\d+)/.exec(accepted[0].body.data.feUrl)![1]);
        expect(readFileSync(join(styles, 'indexHtml.css'), 'utf8')).toBe(sheet(winner));
        expect(readdirSync(styles)).toEqual(['indexHtml.css']);
        version = accepted[0].body.data.updatedAt;
      }
      expect(await logOf('whitelabel', wl.id, 'edit')).toHaveLength(ROUNDS);
    });

    it('flips a switch once for 20 toggles from the same version', async () => {
      const wl = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('racedwl') })).body.data;
      const config = (await h.admin('POST', '/v1/admin/wlConfig/add', { form: { whitelabelId: String(wl.id), config: '{"a":1}', isActive: 'true' } })).body.data;
      let current = config as Record<string, unknown>;
      for (let round = 0; round < ROUNDS; round++) {
        const answers = await race(() => send('POST', '/v1/admin/wlConfig/changeIsActive', { id: config.id, updatedAt: current.updatedAt as string }));
        const accepted = answers.filter((a) => a.status === 200);
        expect(accepted).toHaveLength(1);
        expect(answers.filter((a) => a.status === 409)).toHaveLength(RACERS - 1);
        expect(accepted[0].body.data.isActive).toBe(!current.isActive);
        for (const stale of answers.filter((a) => a.status === 409)) expect(stale.body.stale!.record).toEqual(accepted[0].body.data);
        current = accepted[0].body.data;
      }
      expect(await logOf('wlConfig', config.id, 'changeIsActive')).toHaveLength(ROUNDS);
    });

    it('deletes a record once for 20 deletes from the same version: the others find it gone', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const opened = await addPlatform(`doomed${round}`);
        const answers = await race(() => send('GET', '/v1/admin/platform/destroy', { id: opened.id, updatedAt: opened.updatedAt }));
        expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
        expect(answers.filter((a) => a.status === 404)).toHaveLength(RACERS - 1);
        expect(await platformRow(opened.id)).toBeUndefined();
        expect(await logOf('platform', opened.id, 'destroy')).toHaveLength(1);
      }
    });

    it('accepts one of edits and deletes racing from the same version, and refuses the rest by what it did', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const opened = await addPlatform(`contest${round}`);
        const answers = await race((i) =>
          i % 2
            ? send('GET', '/v1/admin/platform/edit', { id: opened.id, maxVersion: `09.${String(i).padStart(2, '0')}.00`, updatedAt: opened.updatedAt })
            : send('GET', '/v1/admin/platform/destroy', { id: opened.id, updatedAt: opened.updatedAt }),
        );
        const accepted = answers.filter((a) => a.status === 200);
        expect(accepted).toHaveLength(1);
        const deleted = accepted[0].body.data.maxVersion === undefined;
        // A delete that won leaves nothing to edit (404); an edit that won makes every other call stale (409).
        expect(answers.filter((a) => a.status === (deleted ? 404 : 409))).toHaveLength(RACERS - 1);
        expect(await platformRow(opened.id)).toEqual(deleted ? undefined : accepted[0].body.data);
        const logged = [...(await logOf('platform', opened.id, 'edit')), ...(await logOf('platform', opened.id, 'destroy'))];
        expect(logged).toHaveLength(1);
      }
    });

    it('refuses a delete made from a stale version and keeps the record', async () => {
      const opened = await addPlatform('kept');
      const changed = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '04.00.00', updatedAt: opened.updatedAt } });
      const stale = await h.admin('GET', '/v1/admin/platform/destroy', { query: { id: opened.id, updatedAt: opened.updatedAt } });
      expect(stale.status).toBe(409);
      expect(staleOf(stale).record).toEqual(changed.body.data);
      expect(await platformRow(opened.id)).toEqual(changed.body.data);
      expect(await logOf('platform', opened.id, 'destroy')).toHaveLength(0);
      expect((await h.admin('GET', '/v1/admin/platform/destroy', { query: { id: opened.id, updatedAt: changed.body.data.updatedAt } })).status).toBe(200);
    });

    it('logs each build once when 20 deletes of all builds race, and removes each once', async () => {
      const BUILDS = 12;
      for (let round = 0; round < 3; round++) {
        for (let b = 0; b < BUILDS; b++) dropBuild(h.app.engine.dataDir, ['racewl', 'tizen', `1.${b}.0`, '1080p']);
        expect((await h.admin('GET', '/v1/admin/build/reload')).status).toBe(200);
        const ids = (await h.admin('GET', '/v1/admin/build/get', { query: { pageSize: 1000 } })).body.data.rows.map((r: { id: number }) => r.id);
        expect(ids).toHaveLength(BUILDS);
        const answers = await race(() => send('DELETE', '/v1/admin/build/destroyAll', {}));
        expect(answers.map((a) => a.status)).toEqual(Array(RACERS).fill(200));
        expect(answers.reduce((sum, a) => sum + Number(a.body.data.count), 0)).toBe(BUILDS);
        expect(await h.count('builds')).toBe(0);
        for (const id of ids) expect(await logOf('build', id, 'destroyAll')).toHaveLength(1);
      }
    });
  });
});
