// Pipelines through GitLab, against the fake GitLab of scripts/fake-gitlab.ts (GitLab's REST API v4 on
// 127.0.0.1): run, list with filters, delete (canceling in GitLab), the webhook with good and bad secrets, the
// poller catching up, the jobs of the statuses modal, every fault GitLab can show, and a token that never leaks.
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeGitlab, type FakeGitlab } from '../../scripts/fake-gitlab.ts';
import { gitlabOf, WEBHOOK_BODY_LIMIT } from '../../server/gitlab/pipelines.ts';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';
import { emailOf, forEachDialect, startApp, type CallOptions, type Harness, type Reply } from './harness.ts';

const TOKEN = 'glpat-Secret-Test-Token-0042';
const SECRET = 'webhook-secret-9f2c';
const gitlab = { url: 'http://127.0.0.1:1', token: TOKEN, projectId: '42', webhookSecret: SECRET, pollMs: 3_600_000, timeoutMs: 1500 };

let fake: FakeGitlab;
/** Everything the server printed or logged in this file, and every answer it gave: the token must be in none. */
const seen: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    seen.push(String(chunk));
    done();
  },
});
// Fastify takes a logger configuration besides true/false; BuildOptions names only the boolean.
const logger = { level: 'info', stream: logStream } as unknown as boolean;
const originals = { log: console.log, error: console.error, warn: console.warn };

beforeAll(async () => {
  fake = await startFakeGitlab({ token: TOKEN, webhookSecret: SECRET });
  gitlab.url = fake.url;
  for (const name of ['log', 'error', 'warn'] as const) {
    console[name] = (...args: unknown[]) => {
      seen.push(args.map(String).join(' '));
      originals[name](...args);
    };
  }
});
afterAll(async () => {
  Object.assign(console, originals);
  await fake?.close();
});

/** Runs `body` while the fake GitLab's webhooks cannot reach the panel (only the poller hears of changes). */
async function withoutWebhooks(body: () => Promise<void>) {
  fake.webhooks = false;
  try {
    await body();
  } finally {
    fake.webhooks = true;
  }
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 8000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * POSTs a webhook of `length` bytes over a raw socket but sends only its head and first KiB, then waits: resolves to
 * the answer the server gives while the rest of the body (all but 1 KiB of it) is still unsent.
 */
function answerBeforeBody(port: number, headers: Record<string, string>, length = 8 * 1024 * 1024): Promise<{ status: number; body: { code?: string; message?: string } }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    // A server that waits for the body would never answer: fail instead of hanging the file.
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer while the body was unsent')));
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\r\n\r\n');
      const size = Number(/\r\ncontent-length: *(\d+)/i.exec(received)?.[1]);
      if (end < 0 || !(received.length >= end + 4 + size)) return;
      socket.destroy();
      resolve({ status: Number(received.split(' ', 2)[1]), body: JSON.parse(received.slice(end + 4, end + 4 + size)) });
    });
    const head = Object.entries({ 'content-type': 'application/json', 'content-length': String(length), ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`POST /v1/gitlab/webhook HTTP/1.1\r\nhost: 127.0.0.1\r\n${head.join('')}\r\n{"object_kind":"pipeline","pad":"${'x'.repeat(1000)}`);
  });
}

forEachDialect(
  'pipelines through GitLab',
  (h: Harness) => {
    const live: { type: string; data: unknown }[] = [];
    let acme = 0;
    let zeta = 0;
    const call = async (method: string, url: string, o: CallOptions = {}): Promise<Reply> => {
      const reply = await h.call(method, url, o);
      seen.push(reply.raw);
      return reply;
    };
    const run = (version: string, whitelabelId: number, token = h.tokens.admin) =>
      call('POST', '/v1/admin/gitlab/runPipeline', { token, body: { version, whitelabelId } });
    const list = (query: Record<string, string | number> = {}, token = h.tokens.admin) => call('GET', '/v1/admin/gitlab/getPipelines', { token, query });
    const row = async (id: number) => (await list({ pageSize: 1000 })).body.data.rows.find((r: { id: number }) => r.id === id);
    const hook = (body: unknown, headers: Record<string, string> = { 'x-gitlab-token': SECRET, 'x-gitlab-event': 'Pipeline Hook' }) =>
      call('POST', '/v1/gitlab/webhook', { body, headers });
    const event = (id: number, status: string) => ({ object_kind: 'pipeline', object_attributes: { id, status, ref: '1.0.0' } });
    const pipelineCount = () => h.count('pipelines');

    beforeAll(async () => {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      fake.webhookUrl = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}/v1/gitlab/webhook`;
      fake.webhooks = true;
      const emit = h.app.engine.live.emit.bind(h.app.engine.live);
      h.app.engine.live.emit = (type, data) => {
        live.push({ type, data });
        emit(type, data);
      };
      acme = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('acme') })).body.data.id;
      zeta = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('zeta') })).body.data.id;
    });

    it('runs a pipeline in GitLab for a tester and stores its record: GitLab id, version, status, link, whitelabel, who ran it', async () => {
      const before = fake.requests.length;
      const reply = await run('1.2.3', acme, h.tokens.tester);
      expect(reply.status).toBe(200);
      const sent = fake.requests.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ method: 'POST', path: '/api/v4/projects/42/pipeline' });
      expect(sent[0].body).toMatchObject({
        ref: '1.2.3',
        variables: expect.arrayContaining([
          expect.objectContaining({ key: 'WHITELABEL_NAME', value: 'acme' }),
          expect.objectContaining({ key: 'WHITELABEL_ID', value: String(acme) }),
        ]),
      });
      const created = [...fake.pipelines.values()].at(-1)!;
      expect(reply.body.data).toMatchObject({
        pipelineId: created.id,
        ref: '1.2.3',
        status: 'pending',
        webUrl: `${fake.url}/tv/app/-/pipelines/${created.id}`,
        whitelabel: { name: 'acme' },
        user: { email: emailOf('tester') },
      });
      expect(reply.body.data.createdAt).toBeTruthy();
      const audit = await h.app.engine.db.selectFrom('user_logs').selectAll().where('routePath', '=', 'runPipeline').execute();
      expect(audit).toEqual([expect.objectContaining({ baseUrl: '/v1/admin/gitlab', userEmail: emailOf('tester') })]);
      await until('the live pipelines item', () => live.some((i) => i.type === 'pipelines'));
    });

    it('lists pipelines with the whitelabelName and user filters, newest first', async () => {
      expect((await run('2.0.0', zeta, h.tokens.developer)).status).toBe(200);
      const all = (await list()).body.data;
      expect(all.count).toBe(2);
      expect(all.rows.map((r: { ref: string }) => r.ref)).toEqual(['2.0.0', '1.2.3']);
      expect((await list({ whitelabelName: 'ZE' })).body.data.rows.map((r: { whitelabel: { name: string } }) => r.whitelabel.name)).toEqual(['zeta']);
      expect((await list({ user: 'tester@' }, h.tokens.tester)).body.data.rows.map((r: { ref: string }) => r.ref)).toEqual(['1.2.3']);
      expect((await list({ user: 'nobody' })).body.data.count).toBe(0);
      expect((await list({}, h.tokens.customercare)).status).toBe(403);
    });

    it('refuses a version that is not X.X.X and an unknown whitelabel before asking GitLab, storing nothing', async () => {
      const before = { requests: fake.requests.length, rows: await pipelineCount() };
      const bad = await run('1.2', acme);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('version');
      expect((await run('1.2.3-beta', acme)).status).toBe(400);
      const unknown = await run('1.2.3', 999999);
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe('whitelabelId: no whitelabel with id 999999');
      expect(fake.requests.length).toBe(before.requests);
      expect(await pipelineCount()).toBe(before.rows);
    });

    it('passes GitLab\'s refusal of an unknown version to the caller as a 400 naming the version', async () => {
      fake.refs = ['9.9.9'];
      try {
        const before = await pipelineCount();
        const reply = await run('1.2.4', acme);
        expect(reply.status).toBe(400);
        expect(reply.body.message).toBe('version: GitLab cannot run a pipeline for version 1.2.4: Reference not found');
        expect(await pipelineCount()).toBe(before);
      } finally {
        fake.refs = undefined;
      }
    });

    const faults: [string, Parameters<FakeGitlab['fail']>[0], number, RegExp][] = [
      ['a wrong token (401, echoing the token back)', { status: 401, echoToken: true }, 502, /GitLab refused the token \(HTTP 401\): check GITLAB_TOKEN/],
      ['no such project (404)', { status: 404 }, 502, /HTTP 404\): 404 Project Not Found/],
      ['a server error (500)', { status: 500 }, 502, /GitLab failed with HTTP 500/],
      ['garbage (an HTML page)', { kind: 'garbage' }, 502, /not JSON/],
      ['JSON that is not a pipeline', { kind: 'not-a-pipeline' }, 502, /not a pipeline/],
      ['a dropped connection', { kind: 'hangup' }, 502, /GitLab cannot be reached at http:\/\/127\.0\.0\.1:\d+/],
      ['a slow answer (past the timeout)', { kind: 'slow', ms: 2500 }, 504, /did not answer within 1.5 s/],
    ];
    for (const [what, fault, status, message] of faults) {
      it(`answers GitLab's ${what} with a clear ${status} and stores no pipeline`, async () => {
        const before = { rows: await pipelineCount(), requests: fake.requests.length };
        fake.fail(fault, 1, '/pipeline');
        const reply = await run('3.0.0', acme);
        expect(reply.status).toBe(status);
        expect(reply.body.message).toMatch(message);
        expect(reply.raw).not.toContain(TOKEN);
        expect(await pipelineCount()).toBe(before.rows);
        // A create that may have happened is never sent twice.
        expect(fake.requests.length - before.requests).toBe(1);
        expect((await list()).status).toBe(200);
      });
    }

    it('answers a rate limit longer than it waits (429, Retry-After 2) with a 503 saying when to try again', async () => {
      const before = await pipelineCount();
      fake.fail({ status: 429, retryAfter: 2 }, 1, '/pipeline');
      const reply = await run('3.0.1', acme);
      expect(reply.status).toBe(503);
      expect(reply.body.message).toBe('GitLab is limiting requests (HTTP 429); try again in 2 s');
      expect(await pipelineCount()).toBe(before);
      const client = gitlabOf(h.app.engine).client!;
      await until('the end of the pause', () => client.pausedFor() === 0, 4000);
    });

    it('waits out a short 429 (Retry-After) and then creates exactly one pipeline', async () => {
      const before = { rows: await pipelineCount(), requests: fake.requests.length };
      fake.fail({ status: 429, retryAfter: 1 }, 1, '/pipeline');
      const started = Date.now();
      const reply = await run('3.1.0', acme);
      expect(reply.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(fake.requests.length - before.requests).toBe(2);
      expect(await pipelineCount()).toBe(before.rows + 1);
    });

    it('cancels the new pipeline in GitLab again when its record cannot be stored', async () => {
      const next = Math.max(...fake.pipelines.keys()) + 1;
      const now = new Date().toISOString();
      // A record that already claims the id GitLab will give next: storing the new one fails on the unique id.
      await h.app.engine.db
        .insertInto('pipelines')
        .values({ pipelineId: next, ref: '0.0.1', status: 'success', webUrl: null, whitelabelId: acme, whitelabelName: 'acme', userId: null, userEmail: null, createdAt: now, updatedAt: now })
        .execute();
      const before = await pipelineCount();
      const reply = await run('3.3.0', acme);
      expect(reply.status).toBe(409);
      expect(fake.pipelines.get(next)!.status).toBe('canceled');
      expect(await pipelineCount()).toBe(before);
      await h.app.engine.db.deleteFrom('pipelines').where('pipelineId', '=', next).execute();
    });

    it('never follows a redirect, so the token never goes to another host', async () => {
      let other = 0;
      const elsewhere: Server = createServer((_req, res) => {
        other++;
        res.end('{}');
      });
      await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
      const to = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}`;
      try {
        const before = await pipelineCount();
        fake.fail({ kind: 'redirect', to: `${to}/api/v4/projects/42/pipeline` }, 1, '/pipeline');
        const reply = await run('3.2.0', acme);
        expect(reply.status).toBe(502);
        expect(reply.body.message).toBe(`GitLab answered with a redirect to ${to}, which the panel does not follow: set GITLAB_URL to the address GitLab answers on`);
        expect(other).toBe(0);
        expect(await pipelineCount()).toBe(before);
      } finally {
        await new Promise((r) => elsewhere.close(r));
      }
    });

    it('follows GitLab\'s pipeline webhook, and a success reloads that whitelabel\'s builds with progress on the console', async () => {
      dropBuild(h.app.engine.dataDir, ['acme', 'tizen', '4.0.0', '1080p']);
      const reply = await run('4.0.0', acme);
      const { id, pipelineId } = reply.body.data;
      await fake.setStatus(pipelineId, 'running');
      expect((await row(id)).status).toBe('running');
      expect(await h.count('builds')).toBe(0);
      await fake.setStatus(pipelineId, 'success');
      expect((await row(id)).status).toBe('success');
      const builds = (await h.admin('GET', '/v1/admin/build/get', { query: { ownWhitelabel: 'acme' } })).body.data.rows;
      expect(builds.map((b: { name: string }) => b.name)).toEqual(['acme-tizen-4.0.0-1080p']);
      const lines = live.filter((i) => i.type === 'console').map((i) => String(i.data));
      expect(lines.some((l) => l.includes(`Pipeline ${pipelineId} of acme (4.0.0) succeeded: reloading the builds of acme`))).toBe(true);
      expect(lines.some((l) => l.includes('Reload builds for acme: 1 build on disk, 1 new'))).toBe(true);
    });

    it('refuses a webhook with a wrong or missing secret (401) and changes nothing', async () => {
      const { id, pipelineId } = (await run('4.1.0', acme)).body.data;
      const forged = await hook(event(pipelineId, 'success'), { 'x-gitlab-token': 'guess', 'x-gitlab-event': 'Pipeline Hook' });
      expect(forged.status).toBe(401);
      expect((await hook(event(pipelineId, 'success'), { 'x-gitlab-event': 'Pipeline Hook' })).status).toBe(401);
      expect((await row(id)).status).toBe('pending');
      const good = await hook(event(pipelineId, 'running'));
      expect(good.body).toEqual({ result: true, data: { updated: true } });
      expect((await row(id)).status).toBe('running');
    });

    it('refuses a wrong or missing token before reading the body: the 401 comes while 8 MiB are still unsent', async () => {
      const port = (h.app.server.address() as { port: number }).port;
      for (const headers of [{ 'x-gitlab-token': 'guess' }, {}] as Record<string, string>[]) {
        const reply = await answerBeforeBody(port, { ...headers, 'x-gitlab-event': 'Pipeline Hook' });
        expect(reply).toEqual({ status: 401, body: { result: false, code: 'ERR_AUTH', message: 'Wrong or missing X-Gitlab-Token' } });
      }
    });

    it('refuses a body over WEBHOOK_BODY_LIMIT (1 MiB) with 413, also before reading it, and takes one at the limit', async () => {
      const port = (h.app.server.address() as { port: number }).port;
      const reply = await answerBeforeBody(port, { 'x-gitlab-token': SECRET, 'x-gitlab-event': 'Pipeline Hook' }, WEBHOOK_BODY_LIMIT + 1);
      expect(reply.status).toBe(413);
      expect(reply.body.code).toBe('ERR_TOO_LARGE');
      // A pipeline event of the largest size taken: the event and its jobs, padded to exactly 1 MiB.
      const job = (i: number) => ({ id: i, stage: 'build', name: `job-${i}`, status: 'success', runner: { id: 1, description: 'runner' } });
      const body = { object_kind: 'pipeline', object_attributes: { id: 424242, status: 'success' }, builds: Array.from({ length: 1000 }, (_, i) => job(i)), pad: '' };
      body.pad = 'x'.repeat(WEBHOOK_BODY_LIMIT - Buffer.byteLength(JSON.stringify(body)));
      expect(Buffer.byteLength(JSON.stringify(body))).toBe(WEBHOOK_BODY_LIMIT);
      expect((await hook(body)).body).toEqual({ result: true, data: { updated: false } });
    });

    it('answers other events and pipelines the panel did not start with 200 and changes nothing; refuses a payload that is no pipeline event', async () => {
      expect((await hook({ object_kind: 'push' }, { 'x-gitlab-token': SECRET, 'x-gitlab-event': 'Push Hook' })).body).toEqual({ result: true, data: { ignored: 'Push Hook' } });
      expect((await hook(event(987654, 'success'))).body).toEqual({ result: true, data: { updated: false } });
      expect((await hook({ object_kind: 'pipeline', object_attributes: { id: 'x' } })).status).toBe(400);
      expect((await hook({ object_kind: 'pipeline', object_attributes: { id: 5, status: 'DROP TABLE' } })).status).toBe(400);
      expect((await hook('not json', { 'x-gitlab-token': SECRET, 'x-gitlab-event': 'Pipeline Hook', 'content-type': 'application/json' })).status).toBe(400);
    });

    it('never moves a finished pipeline back on a late webhook', async () => {
      const { id, pipelineId } = (await run('4.2.0', acme)).body.data;
      await hook(event(pipelineId, 'failed'));
      expect((await hook(event(pipelineId, 'running'))).body.data.updated).toBe(false);
      expect((await row(id)).status).toBe('failed');
    });

    it('catches up by polling when webhooks cannot reach the panel: failed, then a success that reloads builds', () =>
      withoutWebhooks(async () => {
        const failing = (await run('5.0.0', zeta)).body.data;
        const passing = (await run('5.0.1', zeta)).body.data;
        await fake.setStatus(failing.pipelineId, 'failed');
        await fake.setStatus(passing.pipelineId, 'running');
        expect((await row(failing.id)).status).toBe('pending');
        await gitlabOf(h.app.engine).pollOnce();
        expect((await row(failing.id)).status).toBe('failed');
        expect((await row(passing.id)).status).toBe('running');
        dropBuild(h.app.engine.dataDir, ['zeta', 'webos', '5.0.1', '1080p']);
        await fake.setStatus(passing.pipelineId, 'success');
        await gitlabOf(h.app.engine).pollOnce();
        expect((await row(passing.id)).status).toBe('success');
        const builds = (await h.admin('GET', '/v1/admin/build/get', { query: { ownWhitelabel: 'zeta' } })).body.data.rows;
        expect(builds.map((b: { name: string }) => b.name)).toEqual(['zeta-webos-5.0.1-1080p']);
      }));

    it('pauses polling for as long as a 429 asks (Retry-After), asking GitLab nothing meanwhile, then catches up', () =>
      withoutWebhooks(async () => {
        const { id, pipelineId } = (await run('5.1.0', zeta)).body.data;
        await fake.setStatus(pipelineId, 'running');
        const client = gitlabOf(h.app.engine).client!;
        fake.fail({ status: 429, retryAfter: 2 }, 1, '/pipelines/');
        await gitlabOf(h.app.engine).pollOnce();
        expect(client.pausedFor()).toBeGreaterThan(0);
        const asked = fake.requests.length;
        await gitlabOf(h.app.engine).pollOnce();
        expect(fake.requests.length).toBe(asked);
        await until('the end of the pause', () => client.pausedFor() === 0, 4000);
        await gitlabOf(h.app.engine).pollOnce();
        expect((await row(id)).status).toBe('running');
      }));

    it('marks a pipeline that GitLab no longer has as canceled, so it stops being polled, but not for a missing project', () =>
      withoutWebhooks(async () => {
        const { id, pipelineId } = (await run('5.2.0', zeta)).body.data;
        fake.fail({ status: 404 }, 1000, '/pipelines/');
        await gitlabOf(h.app.engine).pollOnce();
        expect((await row(id)).status).toBe('pending');
        fake.clearFaults();
        fake.pipelines.delete(pipelineId);
        await gitlabOf(h.app.engine).pollOnce();
        expect((await row(id)).status).toBe('canceled');
      }));

    it('deletes a record, canceling its pipeline in GitLab first while it still runs', async () => {
      const { id, pipelineId } = (await run('6.0.0', acme, h.tokens.tester)).body.data;
      await fake.setStatus(pipelineId, 'running');
      const reply = await call('DELETE', '/v1/admin/gitlab/deletePipeline', { token: h.tokens.tester, query: { id } });
      expect(reply.status).toBe(200);
      expect(fake.pipelines.get(pipelineId)!.status).toBe('canceled');
      expect(await row(id)).toBeUndefined();
      expect((await call('DELETE', '/v1/admin/gitlab/deletePipeline', { token: h.tokens.tester, query: { id } })).status).toBe(404);
    });

    it('deletes a finished pipeline\'s record without asking GitLab', async () => {
      const { id, pipelineId } = (await run('6.1.0', acme)).body.data;
      await fake.setStatus(pipelineId, 'failed');
      const asked = fake.requests.length;
      expect((await call('DELETE', '/v1/admin/gitlab/deletePipeline', { token: h.tokens.admin, query: { id } })).status).toBe(200);
      expect(fake.requests.length).toBe(asked);
    });

    it('keeps the record of a running pipeline when GitLab cannot cancel it, and says so', async () => {
      const { id, pipelineId } = (await run('6.2.0', acme)).body.data;
      fake.fail({ status: 500 }, 3, '/cancel');
      const reply = await call('DELETE', '/v1/admin/gitlab/deletePipeline', { token: h.tokens.admin, query: { id } });
      expect(reply.status).toBe(502);
      expect(reply.body.message).toBe(`Pipeline ${pipelineId} is still pending and GitLab could not cancel it, so its record is kept: GitLab failed with HTTP 500: 500 Internal Server Error`);
      expect((await row(id)).status).toBe('pending');
    });

    it('lists the jobs of a pipeline for the statuses modal: stage, name, status and duration, read from GitLab', async () => {
      const { id, pipelineId } = (await run('7.0.0', acme, h.tokens.tester)).body.data;
      await fake.setStatus(pipelineId, 'running');
      await fake.setStatus(pipelineId, 'failed');
      const reply = await call('GET', '/v1/admin/gitlab/getJobs', { token: h.tokens.tester, query: { id } });
      expect(reply.status).toBe(200);
      expect(reply.body.data.count).toBe(4);
      const byName = Object.fromEntries(reply.body.data.rows.map((j: { name: string }) => [j.name, j]));
      expect(byName.lint).toMatchObject({ stage: 'test', status: 'failed', duration: expect.any(Number) });
      expect(byName.publish).toMatchObject({ stage: 'deploy', status: 'skipped', duration: null });
      expect(byName['build:tizen'].webUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/tv\/app\/-\/jobs\/\d+$/);
      expect((await call('GET', '/v1/admin/gitlab/getJobs', { token: h.tokens.tester, query: { id: 999999 } })).status).toBe(404);
      expect((await call('GET', '/v1/admin/gitlab/getJobs', { token: h.tokens.customercare, query: { id } })).status).toBe(403);
    });

    it('says GitLab is configured to every role of the screen', async () => {
      const reply = await call('GET', '/v1/admin/gitlab/getStatus', { token: h.tokens.tester });
      expect(reply.body.data).toEqual({ configured: true, missing: [], message: null, webhookPath: '/v1/gitlab/webhook' });
    });

    it('never lets the token into an answer, a log line or the audit log', async () => {
      expect(seen.length).toBeGreaterThan(50);
      expect(seen.some((text) => text.includes(TOKEN))).toBe(false);
      const rows = [
        ...(await h.app.engine.db.selectFrom('user_logs').selectAll().execute()),
        ...(await h.app.engine.db.selectFrom('pipelines').selectAll().execute()),
      ];
      expect(JSON.stringify(rows)).not.toContain(TOKEN);
      expect(JSON.stringify(live)).not.toContain(TOKEN);
    });
  },
  { config: { gitlab }, logger },
);

forEachDialect(
  'pipelines without GitLab configured',
  (h: Harness) => {
    it('starts normally, says which variables to set, and answers runPipeline with 503 saying so', async () => {
      const status = await h.call('GET', '/v1/admin/gitlab/getStatus', { token: h.tokens.developer });
      expect(status.body.data).toMatchObject({ configured: false, missing: ['GITLAB_URL', 'GITLAB_TOKEN', 'GITLAB_PROJECT_ID', 'GITLAB_WEBHOOK_SECRET'] });
      const message = 'GitLab is not configured: set GITLAB_URL, GITLAB_TOKEN, GITLAB_PROJECT_ID, GITLAB_WEBHOOK_SECRET in the server\'s environment';
      expect(status.body.data.message).toBe(message);
      const wl = (await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('acme') })).body.data.id;
      const reply = await h.call('POST', '/v1/admin/gitlab/runPipeline', { token: h.tokens.tester, body: { version: '1.0.0', whitelabelId: wl } });
      expect(reply.status).toBe(503);
      expect(reply.body.message).toBe(message);
      expect(await h.count('pipelines')).toBe(0);
      expect((await h.call('GET', '/v1/admin/gitlab/getPipelines', { token: h.tokens.tester })).body.data).toEqual({ rows: [], count: 0 });
    });

    it('has no webhook to send to: 404 before reading the body, with or without a token', async () => {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (h.app.server.address() as { port: number }).port;
      for (const headers of [{ 'x-gitlab-token': 'x' }, {}] as Record<string, string>[]) {
        const reply = await answerBeforeBody(port, { ...headers, 'x-gitlab-event': 'Pipeline Hook' });
        expect(reply).toEqual({ status: 404, body: { result: false, code: 'ERR_NOT_FOUND', message: 'No route POST /v1/gitlab/webhook: GitLab is not configured on this server' } });
      }
    });

    it('still deletes a record of a running pipeline (there is no GitLab to cancel it in)', async () => {
      const now = new Date().toISOString();
      await h.app.engine.db
        .insertInto('pipelines')
        .values({ pipelineId: 77, ref: '1.0.0', status: 'running', webUrl: 'https://gitlab.example.com/tv/app/-/pipelines/77', whitelabelId: 1, whitelabelName: 'acme', userId: null, userEmail: null, createdAt: now, updatedAt: now })
        .execute();
      const id = (await h.call('GET', '/v1/admin/gitlab/getPipelines', { token: h.tokens.admin })).body.data.rows[0].id;
      expect((await h.call('DELETE', '/v1/admin/gitlab/deletePipeline', { token: h.tokens.admin, query: { id } })).status).toBe(200);
      expect(await h.count('pipelines')).toBe(0);
    });
  },
  { config: { gitlab: { pollMs: 3_600_000, timeoutMs: 1500 } } },
);

it('polls on its own timer, and answers GitLab being down with 502 naming the address', async () => {
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const closed = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise((r) => probe.close(r));
  const down = { ...gitlab, url: closed, pollMs: 100, idlePollMs: 400 };
  const started = await startApp('sqlite', { config: { gitlab: down } });
  const { app } = started;
  try {
    const login = await app.inject({ method: 'POST', url: '/v1/user/login', payload: { email: 'admin@test.io', password: 'admin-password-1' } });
    const token = login.json().data.token;
    const form = whitelabelForm('acme');
    const { multipartBody } = await import('./harness.ts');
    const body = multipartBody(form);
    const wl = await app.inject({ method: 'POST', url: '/v1/admin/whitelabel/add', headers: { authorization: token, 'content-type': body.contentType }, payload: body.payload });
    const reply = await app.inject({ method: 'POST', url: '/v1/admin/gitlab/runPipeline', headers: { authorization: token }, payload: { version: '1.0.0', whitelabelId: wl.json().data.id } });
    expect(reply.statusCode).toBe(502);
    expect(reply.json().message).toBe(`GitLab cannot be reached at ${closed}: ECONNREFUSED`);
    // A pipeline still running while GitLab is away: the poller keeps trying and says so on the console, once.
    const now = new Date().toISOString();
    await app.engine.db
      .insertInto('pipelines')
      .values({ pipelineId: 5, ref: '1.0.0', status: 'running', webUrl: null, whitelabelId: 1, whitelabelName: 'acme', userId: null, userEmail: null, createdAt: now, updatedAt: now })
      .execute();
    const lines: string[] = [];
    const emit = app.engine.live.emit.bind(app.engine.live);
    app.engine.live.emit = (type, data) => {
      if (type === 'console') lines.push(String(data));
      emit(type, data);
    };
    await until('a poll by the timer', () => lines.length > 0, 5000);
    await new Promise((r) => setTimeout(r, 500));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`GitLab poll failed: GitLab cannot be reached at ${closed}: ECONNREFUSED$`));
  } finally {
    await app.close();
    await started.cleanup();
  }
});

it('follows a running pipeline every pollMs without the webhook, and while none runs asks GitLab nothing and waits longer and longer', () =>
  withoutWebhooks(async () => {
    const quick = { ...gitlab, url: fake.url, pollMs: 300, idlePollMs: 1200 };
    const started = await startApp('sqlite', { config: { gitlab: quick } });
    const { app } = started;
    try {
      const login = await app.inject({ method: 'POST', url: '/v1/user/login', payload: { email: 'admin@test.io', password: 'admin-password-1' } });
      const token = login.json().data.token;
      const { multipartBody } = await import('./harness.ts');
      const body = multipartBody(whitelabelForm('acme'));
      const wl = await app.inject({ method: 'POST', url: '/v1/admin/whitelabel/add', headers: { authorization: token, 'content-type': body.contentType }, payload: body.payload });
      const service = gitlabOf(app.engine);
      // Nothing to follow yet: the poller backs off to idlePollMs.
      await until('the idle poller backing off', () => service.nextPollMs() === 1200, 5000);
      const run = await app.inject({ method: 'POST', url: '/v1/admin/gitlab/runPipeline', headers: { authorization: token }, payload: { version: '7.0.0', whitelabelId: wl.json().data.id } });
      const { pipelineId } = run.json().data;
      // Running one brings the poller back to pollMs.
      expect(service.nextPollMs()).toBe(300);
      const status = async () => (await app.engine.db.selectFrom('pipelines').select('status').where('pipelineId', '=', pipelineId).executeTakeFirst())?.status;
      const asks = () => fake.requests.filter((r) => r.method === 'GET' && r.path === `/api/v4/projects/42/pipelines/${pipelineId}`).length;
      await fake.setStatus(pipelineId, 'running');
      const changed = Date.now();
      await until('the running status without a webhook', async () => (await status()) === 'running', 3000);
      const runningAfter = Date.now() - changed;
      await fake.setStatus(pipelineId, 'success');
      await until('the success without a webhook', async () => (await status()) === 'success', 3000);
      expect(runningAfter).toBeLessThan(3000);
      // Finished: GitLab is asked nothing more, and the waits grow back to idlePollMs.
      const afterFinish = asks();
      expect(afterFinish).toBeGreaterThanOrEqual(2);
      await until('the poller backing off again', () => service.nextPollMs() === 1200, 5000);
      expect(asks()).toBe(afterFinish);
    } finally {
      await app.close();
      await started.cleanup();
    }
  }));
