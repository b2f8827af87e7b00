// A fake GitLab on 127.0.0.1 for the tests and for trying the Pipelines screen without a GitLab: it speaks the
// parts of GitLab's REST API v4 the panel uses (create, get and cancel a pipeline, list its jobs), moves each
// pipeline pending -> running -> success or failed over time, sends GitLab's pipeline webhook back, and can be
// told to misbehave (401, 404, 429 with Retry-After, 500, slow, garbage, a redirect). On success it can drop
// build folders the way CI does, so the panel's reload finds new builds.
//
// `npm run fake-gitlab` runs it (see the README); tests call startFakeGitlab().
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export type Fault =
  | { status: 401 | 403 | 404 | 500 | 502 | 503; echoToken?: boolean }
  | { status: 429; retryAfter?: number }
  | { kind: 'garbage' }
  | { kind: 'not-a-pipeline' }
  | { kind: 'slow'; ms: number }
  | { kind: 'hangup' }
  | { kind: 'redirect'; to: string };

export interface FakeGitlabOptions {
  token: string;
  projectId?: number;
  projectPath?: string;
  port?: number;
  /** Time from pending to running and from running to the end; 0 moves pipelines only through setStatus. */
  stepMs?: number;
  /** How a pipeline ends; default success. */
  outcome?: (pipeline: FakePipeline) => 'success' | 'failed';
  /** Where pipeline events go (the panel's /v1/gitlab/webhook), with this X-Gitlab-Token. */
  webhookUrl?: string;
  webhookSecret?: string;
  /** When set, a successful pipeline drops <WHITELABEL_NAME>/<platform>/<ref>/1080p/ build folders here. */
  buildsDir?: string;
  /** Refs that exist; others are refused as GitLab does (400 Reference not found). Default: every ref. */
  refs?: string[];
  log?: (line: string) => void;
}

export interface FakePipeline {
  id: number;
  iid: number;
  ref: string;
  status: string;
  variables: Record<string, string>;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
}

export interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeGitlab {
  url: string;
  pipelines: Map<number, FakePipeline>;
  requests: FakeRequest[];
  /** Sends pipeline events to webhookUrl (on by default when webhookUrl is given). */
  webhooks: boolean;
  /** Where pipeline events go; may be set after start (a test's server listens after the fake). */
  webhookUrl?: string;
  /** Refs that exist (others: 400 Reference not found); undefined = every ref. */
  refs?: string[];
  /** Where a successful pipeline drops its build folders; undefined = nowhere. */
  buildsDir?: string;
  /** The next `count` requests whose path contains `pathPart` get `fault` instead of their answer. */
  fail(fault: Fault, count?: number, pathPart?: string): void;
  /** Forgets the faults not yet spent. */
  clearFaults(): void;
  /** Moves a pipeline to `status` now (and sends its webhook). */
  setStatus(id: number, status: string): Promise<void>;
  close(): Promise<void>;
}

const PLATFORMS = ['tizen', 'webos'];
const JOBS = [
  { name: 'build:tizen', stage: 'build' },
  { name: 'build:webos', stage: 'build' },
  { name: 'lint', stage: 'test' },
  { name: 'publish', stage: 'deploy' },
];
const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);
const SHA = 'a91957a858320c0e17f3a0eca7cfacbff50ea29a';
const USER = { id: 1, username: 'ci-bot', name: 'CI bot', state: 'active', avatar_url: null, web_url: 'http://127.0.0.1/ci-bot' };

/** GitLab's webhook dates look like "2016-08-12 15:23:28 UTC"; its API dates are ISO 8601. */
const hookDate = (d: Date | null) => (d ? `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC` : null);
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const seconds = (from: Date | null, to: Date | null) => (from ? Math.round(((to ?? new Date()).getTime() - from.getTime()) / 100) / 10 : null);

/** Each job's status for a pipeline's status: the build stage runs first, then test, then deploy. */
function jobStatuses(status: string): string[] {
  switch (status) {
    case 'pending':
    case 'created':
      return ['pending', 'pending', 'created', 'created'];
    case 'running':
      return ['success', 'running', 'created', 'created'];
    case 'success':
      return ['success', 'success', 'success', 'success'];
    case 'failed':
      return ['success', 'success', 'failed', 'skipped'];
    case 'canceled':
      return ['success', 'canceled', 'canceled', 'canceled'];
    default:
      return JOBS.map(() => status);
  }
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 1024 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** @example const gitlab = await startFakeGitlab({token: 't', webhookUrl: 'http://127.0.0.1:8080/v1/gitlab/webhook', webhookSecret: 's'}); */
export async function startFakeGitlab(options: FakeGitlabOptions): Promise<FakeGitlab> {
  const projectId = options.projectId ?? 42;
  const projectPath = options.projectPath ?? 'tv/app';
  const stepMs = options.stepMs ?? 0;
  const log = options.log ?? (() => {});
  const pipelines = new Map<number, FakePipeline>();
  const requests: FakeRequest[] = [];
  const faults: { fault: Fault; left: number; pathPart?: string }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let nextId = 1000;
  let url = '';
  // One delivery at a time, in the order the statuses changed, as a pipeline's events arrive in order mostly.
  let deliveries: Promise<void> = Promise.resolve();

  const webUrl = (p: FakePipeline) => `${url}/${projectPath}/-/pipelines/${p.id}`;
  const pipelineJson = (p: FakePipeline) => ({
    id: p.id,
    iid: p.iid,
    project_id: projectId,
    sha: SHA,
    ref: p.ref,
    status: p.status,
    source: 'api',
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    web_url: webUrl(p),
    before_sha: SHA,
    tag: /^\d+\.\d+\.\d+$/.test(p.ref),
    yaml_errors: null,
    user: USER,
    started_at: iso(p.startedAt),
    finished_at: iso(p.finishedAt),
    committed_at: null,
    duration: p.finishedAt ? seconds(p.startedAt, p.finishedAt) : null,
    queued_duration: seconds(p.createdAt, p.startedAt),
    coverage: null,
  });
  const jobsJson = (p: FakePipeline) => {
    const statuses = jobStatuses(p.status);
    return JOBS.map((job, i) => {
      const ran = ['success', 'failed', 'canceled', 'running'].includes(statuses[i]);
      const started = ran ? p.startedAt : null;
      const finished = ran && statuses[i] !== 'running' ? (p.finishedAt ?? p.updatedAt) : null;
      return {
        id: p.id * 10 + i,
        name: job.name,
        stage: job.stage,
        status: statuses[i],
        ref: p.ref,
        created_at: iso(p.createdAt),
        started_at: iso(started),
        finished_at: iso(finished),
        duration: started ? seconds(started, finished) : null,
        queued_duration: 0.5,
        allow_failure: false,
        failure_reason: statuses[i] === 'failed' ? 'script_failure' : undefined,
        web_url: `${url}/${projectPath}/-/jobs/${p.id * 10 + i}`,
        pipeline: { id: p.id, project_id: projectId, ref: p.ref, sha: SHA, status: p.status },
        user: USER,
      };
    });
  };
  const hookPayload = (p: FakePipeline) => ({
    object_kind: 'pipeline',
    object_attributes: {
      id: p.id,
      iid: p.iid,
      name: null,
      ref: p.ref,
      tag: /^\d+\.\d+\.\d+$/.test(p.ref),
      sha: SHA,
      before_sha: SHA,
      source: 'api',
      status: p.status,
      stages: ['build', 'test', 'deploy'],
      created_at: hookDate(p.createdAt),
      finished_at: hookDate(p.finishedAt),
      duration: p.finishedAt ? seconds(p.startedAt, p.finishedAt) : null,
      variables: Object.entries(p.variables).map(([key, value]) => ({ key, value })),
      url: webUrl(p),
    },
    user: { id: 1, name: USER.name, username: USER.username, avatar_url: null, email: '[REDACTED]' },
    project: { id: projectId, name: projectPath.split('/').pop(), web_url: `${url}/${projectPath}`, path_with_namespace: projectPath, default_branch: 'main' },
    commit: { id: SHA, message: 'Release\n', timestamp: iso(p.createdAt), url: `${url}/${projectPath}/-/commit/${SHA}`, author: { name: 'CI bot', email: 'ci@example.com' } },
    builds: jobsJson(p).map((j) => ({ id: j.id, stage: j.stage, name: j.name, status: j.status, created_at: hookDate(p.createdAt), started_at: null, finished_at: null, duration: j.duration, when: 'on_success', manual: false, allow_failure: false, user: USER, runner: null, artifacts_file: { filename: null, size: null }, environment: null })),
  });

  const fake: FakeGitlab = {
    url: '',
    pipelines,
    requests,
    webhooks: true,
    webhookUrl: options.webhookUrl,
    refs: options.refs,
    buildsDir: options.buildsDir,
    fail(fault, count = 1, pathPart) {
      faults.push({ fault, left: count, pathPart });
    },
    clearFaults() {
      faults.length = 0;
    },
    async setStatus(id, status) {
      const p = pipelines.get(id);
      if (!p || p.status === status) return;
      const now = new Date();
      p.status = status;
      p.updatedAt = now;
      if (status === 'running') p.startedAt ??= now;
      if (FINISHED.has(status)) {
        p.startedAt ??= now;
        p.finishedAt = now;
        if (status === 'success') dropBuilds(p);
      }
      log(`pipeline ${id}: ${status}`);
      const payload = hookPayload(p);
      deliveries = deliveries.then(() => deliver(payload));
      await deliveries;
    },
    close: () =>
      new Promise((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function dropBuilds(p: FakePipeline) {
    const name = p.variables.WHITELABEL_NAME;
    const root = fake.buildsDir;
    if (!root || !name || !/^[A-Za-z0-9._-]+$/.test(name) || !/^[A-Za-z0-9._-]+$/.test(p.ref)) return;
    for (const platform of PLATFORMS) {
      const dir = join(root, name, platform, p.ref, '1080p');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'app.js'), `console.log(${JSON.stringify(`${name} ${platform} ${p.ref} (pipeline ${p.id})`)});\n`);
      writeFileSync(join(dir, 'index.css'), 'body { margin: 0; }\n');
    }
    log(`pipeline ${p.id}: builds of ${name} ${p.ref} dropped under ${root}`);
  }

  async function deliver(payload: unknown) {
    if (!fake.webhooks || !fake.webhookUrl) return;
    try {
      const response = await fetch(fake.webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Gitlab-Event': 'Pipeline Hook', 'X-Gitlab-Token': options.webhookSecret ?? '', 'User-Agent': 'GitLab/17.0.0' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      log(`webhook: HTTP ${response.status}`);
    } catch (error) {
      log(`webhook failed: ${(error as Error).message}`);
    }
  }

  function later(ms: number, fn: () => void) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    response.writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/html' : 'application/json', ...headers });
    response.end(text);
  }

  /** Answers a fault instead of the request; false when the fault only delays it. */
  async function misbehave(fault: Fault, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    if ('kind' in fault) {
      if (fault.kind === 'slow') {
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        return false;
      }
      if (fault.kind === 'hangup') request.socket.destroy();
      else if (fault.kind === 'garbage') send(response, 200, '<html><body><h1>Welcome to nginx!</h1></body></html>');
      else if (fault.kind === 'not-a-pipeline') send(response, 200, { id: 'abc', status: 42, web_url: 'javascript:alert(1)' });
      else send(response, 302, '', { Location: fault.to });
      return true;
    }
    if (fault.status === 429) {
      send(response, 429, 'Retry later\n', { 'Retry-After': String(fault.retryAfter ?? 1) });
      return true;
    }
    const messages: Record<number, string> = { 401: '401 Unauthorized', 403: '403 Forbidden', 404: '404 Project Not Found', 500: '500 Internal Server Error', 502: '502 Bad Gateway', 503: '503 Service Unavailable' };
    const token = request.headers['private-token'];
    send(response, fault.status, { message: fault.echoToken ? `${messages[fault.status]}: token ${String(token)} was refused` : messages[fault.status] });
    return true;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const target = new URL(request.url ?? '/', 'http://fake');
    const body = await readBody(request);
    requests.push({ method: request.method ?? 'GET', path: target.pathname + target.search, body });
    const fault = faults.find((f) => f.left > 0 && (!f.pathPart || target.pathname.includes(f.pathPart)));
    if (fault) {
      fault.left--;
      if (await misbehave(fault.fault, request, response)) return;
    }
    const token = request.headers['private-token'] ?? request.headers.authorization?.replace(/^Bearer /, '');
    if (token !== options.token) return send(response, 401, { message: '401 Unauthorized' });
    // The project segment stays URL-encoded in the raw path: /api/v4/projects/tv%2Fapp/pipeline.
    const match = /^\/api\/v4\/projects\/([^/]+)\/(pipeline|pipelines\/(\d+)(\/cancel|\/jobs)?)$/.exec(target.pathname);
    if (!match) return send(response, 404, { error: '404 Not Found' });
    const project = decodeURIComponent(match[1]);
    if (project !== String(projectId) && project !== projectPath) return send(response, 404, { message: '404 Project Not Found' });
    const method = request.method ?? 'GET';

    if (match[2] === 'pipeline') {
      if (method !== 'POST') return send(response, 405, { error: '405 Method Not Allowed' });
      const input = (body && typeof body === 'object' ? body : {}) as { ref?: unknown; variables?: unknown };
      const ref = String(input.ref ?? target.searchParams.get('ref') ?? '');
      if (!ref) return send(response, 400, { error: 'ref is missing' });
      if (fake.refs && !fake.refs.includes(ref)) return send(response, 400, { message: { base: ['Reference not found'] } });
      const variables: Record<string, string> = {};
      for (const v of Array.isArray(input.variables) ? input.variables : []) {
        const { key, value } = (v ?? {}) as { key?: unknown; value?: unknown };
        if (typeof key !== 'string' || !/^[A-Za-z0-9_]{1,255}$/.test(key)) return send(response, 400, { message: { 'variables.key': ['is invalid'] } });
        variables[key] = String(value ?? '');
      }
      const now = new Date();
      const p: FakePipeline = { id: nextId++, iid: nextId - 1000, ref, status: 'pending', variables, createdAt: now, startedAt: null, finishedAt: null, updatedAt: now };
      pipelines.set(p.id, p);
      log(`pipeline ${p.id} created for ${ref} ${JSON.stringify(variables)}`);
      if (stepMs > 0) {
        later(stepMs, () => void fake.setStatus(p.id, 'running'));
        later(2 * stepMs, () => void fake.setStatus(p.id, options.outcome?.(p) ?? 'success'));
      }
      return send(response, 201, pipelineJson(p));
    }
    const p = pipelines.get(Number(match[3]));
    if (!p) return send(response, 404, { message: '404 Not found' });
    if (match[4] === '/cancel') {
      if (method !== 'POST') return send(response, 405, { error: '405 Method Not Allowed' });
      if (!FINISHED.has(p.status)) await fake.setStatus(p.id, 'canceled');
      return send(response, 200, pipelineJson(p));
    }
    if (method !== 'GET') return send(response, 405, { error: '405 Method Not Allowed' });
    if (match[4] === '/jobs') {
      const jobs = jobsJson(p).reverse();
      const perPage = Math.min(100, Number(target.searchParams.get('per_page') ?? 20) || 20);
      const page = Math.max(1, Number(target.searchParams.get('page') ?? 1) || 1);
      const slice = jobs.slice((page - 1) * perPage, page * perPage);
      const more = page * perPage < jobs.length;
      return send(response, 200, slice, { 'X-Page': String(page), 'X-Per-Page': String(perPage), 'X-Total': String(jobs.length), 'X-Next-Page': more ? String(page + 1) : '' });
    }
    return send(response, 200, pipelineJson(p));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) send(response, 500, { message: `500 Internal Server Error: ${error.message}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  fake.url = url;
  return fake;
}

// `npm run fake-gitlab`: a fake GitLab for a panel on PANEL_URL, with the settings the README shows.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const env = process.env;
  const panel = (env.PANEL_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const failEvery = Number(env.FAKE_GITLAB_FAIL_EVERY ?? 0);
  let count = 0;
  const fake = await startFakeGitlab({
    token: env.GITLAB_TOKEN ?? 'fake-token',
    port: Number(env.FAKE_GITLAB_PORT ?? 8929),
    stepMs: Number(env.FAKE_GITLAB_STEP_SECONDS ?? 5) * 1000,
    webhookUrl: `${panel}/v1/gitlab/webhook`,
    webhookSecret: env.GITLAB_WEBHOOK_SECRET ?? 'fake-secret',
    buildsDir: env.FAKE_GITLAB_BUILDS_DIR || undefined,
    outcome: () => (failEvery > 0 && ++count % failEvery === 0 ? 'failed' : 'success'),
    log: (line) => console.log(`fake GitLab: ${line}`),
  });
  console.log(`Fake GitLab on ${fake.url} (project 42 or tv%2Fapp), sending pipeline events to ${panel}/v1/gitlab/webhook`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
