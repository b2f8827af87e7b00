// The parts of GitLab's REST API v4 the Pipelines screen uses: create, get and cancel a pipeline, and list a
// pipeline's jobs. Every request has a timeout, never follows a redirect (the token would go wherever GitLab
// pointed), waits for one of a few slots, and backs off on 429/5xx honouring Retry-After. Every failure is an
// AppError whose message says what went wrong in words an operator can act on, never with the token in it.
import { AppError } from '../errors.ts';

export interface GitlabPipeline {
  id: number;
  status: string;
  ref: string;
  webUrl: string;
}

export interface GitlabJob {
  id: number;
  stage: string;
  name: string;
  status: string;
  /** Seconds, null until the job has run. */
  duration: number | null;
  webUrl: string | null;
}

/** A failed call to GitLab: `status` is what the panel answers, `gitlabStatus` what GitLab answered (if anything). */
export class GitlabError extends AppError {
  constructor(
    status: number,
    message: string,
    readonly gitlabStatus?: number,
  ) {
    super(status, message);
    this.name = 'GitlabError';
  }
}

export interface GitlabClientOptions {
  url: string;
  token: string;
  projectId: string;
  timeoutMs: number;
  /** Requests in flight at once; more wait for a slot. */
  concurrency?: number;
  /** Tries of one call, the first included. */
  attempts?: number;
  /** The longest wait for a free slot after a 429 that a call accepts before it gives up. */
  maxWaitMs?: number;
}

export interface GitlabClient {
  createPipeline(ref: string, variables: Record<string, string>): Promise<GitlabPipeline>;
  getPipeline(id: number): Promise<GitlabPipeline>;
  cancelPipeline(id: number): Promise<GitlabPipeline>;
  pipelineJobs(id: number): Promise<GitlabJob[]>;
  /** Milliseconds GitLab asked us to wait (429 Retry-After) that are still to run; 0 when none. */
  pausedFor(): number;
}

/** Largest answer read from GitLab; a job list of 500 jobs is well under it. */
const MAX_BODY = 4 * 1024 * 1024;
const JOB_PAGES = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** At most `max` calls of `run` at once; the others wait in order. */
export function createLimiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next caller, so a newcomer cannot slip in between.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** Retry-After in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** GitLab's error bodies: {"message": "401 Unauthorized"}, {"message": {"base": ["Reference not found"]}}, {"error": "..."}. */
function gitlabMessage(body: unknown): string {
  const flatten = (value: unknown): string[] => {
    if (typeof value === 'string') return [value];
    if (Array.isArray(value)) return value.flatMap(flatten);
    if (value && typeof value === 'object') return Object.values(value).flatMap(flatten);
    return [];
  };
  const b = body as { message?: unknown; error?: unknown } | null;
  return flatten(b?.message ?? b?.error).join('; ').slice(0, 300);
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const httpUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v) && v.length <= 2000;
const statusText = (v: unknown) => typeof v === 'string' && /^[a-z_]{1,40}$/.test(v);

function toPipeline(body: unknown): GitlabPipeline {
  if (!isObject(body) || !Number.isSafeInteger(body.id) || (body.id as number) < 1 || !statusText(body.status) || !httpUrl(body.web_url) || typeof body.ref !== 'string') {
    throw new GitlabError(502, 'GitLab answered with something that is not a pipeline');
  }
  return { id: body.id as number, status: body.status as string, ref: body.ref, webUrl: body.web_url as string };
}

function toJob(body: unknown): GitlabJob {
  if (!isObject(body) || !Number.isSafeInteger(body.id) || typeof body.name !== 'string' || typeof body.stage !== 'string' || !statusText(body.status)) {
    throw new GitlabError(502, 'GitLab answered with something that is not a list of jobs');
  }
  const duration = typeof body.duration === 'number' && Number.isFinite(body.duration) ? body.duration : null;
  return { id: body.id as number, stage: body.stage, name: body.name, status: body.status as string, duration, webUrl: httpUrl(body.web_url) ? (body.web_url as string) : null };
}

/** Reads at most MAX_BODY bytes of an answer as text. */
async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      throw new GitlabError(502, `GitLab's answer is larger than ${MAX_BODY / 1024 / 1024} MiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

type Retry = 'idempotent' | 'rate-limit-only';

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * @example const gitlab = createGitlabClient({url: 'https://gitlab.example.com', token, projectId: '42', timeoutMs: 10_000});
 *          const pipeline = await gitlab.createPipeline('1.2.3', {WHITELABEL_NAME: 'aurora'});
 */
export function createGitlabClient(options: GitlabClientOptions): GitlabClient {
  const base = `${options.url.replace(/\/+$/, '')}/api/v4`;
  const origin = new URL(options.url).origin;
  // An id or a path that is already URL-encoded (group%2Fproject) is sent as it is; a raw path is encoded.
  const project = /%[0-9A-Fa-f]{2}/.test(options.projectId) ? options.projectId : encodeURIComponent(options.projectId);
  const attempts = options.attempts ?? 3;
  const maxWaitMs = options.maxWaitMs ?? options.timeoutMs;
  const slot = createLimiter(options.concurrency ?? 4);
  let pausedUntil = 0;

  /** No message leaves this module with the token in it, whatever GitLab or the network put there. */
  const clean = (text: string) => (options.token ? text.split(options.token).join('[token]') : text);
  const fail = (status: number, message: string, gitlabStatus?: number) => new GitlabError(status, clean(message), gitlabStatus);

  async function once(method: string, path: string, body: unknown): Promise<Answer> {
    const headers: Record<string, string> = { 'PRIVATE-TOKEN': options.token, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        const location = response.headers.get('location');
        let target = 'another address';
        try {
          if (location) target = new URL(location, base).origin;
        } catch {
          // an unreadable Location names nothing
        }
        throw fail(502, `GitLab answered with a redirect to ${target}, which the panel does not follow: set GITLAB_URL to the address GitLab answers on`, response.status);
      }
      const text = await readCapped(response);
      let parsed: unknown = undefined;
      if (text.trim()) {
        try {
          parsed = JSON.parse(text);
        } catch {
          if (response.ok) throw fail(502, `GitLab answered HTTP ${response.status} with something that is not JSON`, response.status);
        }
      }
      return { status: response.status, body: parsed, headers: response.headers };
    } catch (error) {
      if (error instanceof GitlabError) throw error;
      const e = error as Error & { cause?: { code?: string; message?: string } };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') throw fail(504, `GitLab did not answer within ${options.timeoutMs / 1000} s`);
      throw fail(502, `GitLab cannot be reached at ${origin}: ${e.cause?.code ?? e.cause?.message ?? e.message}`);
    }
  }

  /** A waiting time the call accepts, else the 503 that tells the caller when to try again. */
  async function waitOrFail(ms: number) {
    if (ms > maxWaitMs) throw fail(503, `GitLab is limiting requests (HTTP 429); try again in ${Math.ceil(ms / 1000)} s`, 429);
    if (ms > 0) await sleep(ms);
  }

  async function call(method: string, path: string, retry: Retry, body?: unknown): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      let answer: Answer;
      try {
        // The pause is checked once a slot is free: calls queued behind a 429 wait too.
        answer = await slot(async () => {
          await waitOrFail(pausedUntil - Date.now());
          return once(method, path, body);
        });
      } catch (error) {
        // Without an answer a create may still have happened: only calls that can be repeated are repeated.
        const transient = error instanceof GitlabError && (error.status === 504 || (error.status === 502 && error.gitlabStatus === undefined));
        if (retry === 'idempotent' && transient && attempt < attempts) {
          await sleep(250 * 2 ** (attempt - 1));
          continue;
        }
        throw error;
      }
      const { status } = answer;
      if (status === 429) {
        const wait = retryAfterMs(answer.headers.get('retry-after')) ?? 1000 * 2 ** (attempt - 1);
        pausedUntil = Math.max(pausedUntil, Date.now() + wait);
        if (attempt < attempts) continue;
        throw fail(503, `GitLab is limiting requests (HTTP 429); try again in ${Math.ceil(wait / 1000)} s`, 429);
      }
      if (status >= 500) {
        if (retry === 'idempotent' && attempt < attempts) {
          await waitOrFail(retryAfterMs(answer.headers.get('retry-after')) ?? 250 * 2 ** (attempt - 1));
          continue;
        }
        const detail = gitlabMessage(answer.body);
        throw fail(502, `GitLab failed with HTTP ${status}${detail ? `: ${detail}` : ''}`, status);
      }
      if (status === 401) throw fail(502, 'GitLab refused the token (HTTP 401): check GITLAB_TOKEN, a token with the api scope', 401);
      if (status === 403) {
        throw fail(502, `GitLab refused the call (HTTP 403): the token's user may not do this in project ${options.projectId}`, 403);
      }
      if (status < 200 || status >= 300) {
        const detail = gitlabMessage(answer.body);
        throw fail(status === 400 ? 400 : 502, `GitLab refused the call (HTTP ${status})${detail ? `: ${detail}` : ''}`, status);
      }
      return answer;
    }
  }

  const pipelinePath = (id: number) => `/projects/${project}/pipelines/${id}`;

  return {
    async createPipeline(ref, variables) {
      const answer = await call('POST', `/projects/${project}/pipeline`, 'rate-limit-only', {
        ref,
        variables: Object.entries(variables).map(([key, value]) => ({ key, value, variable_type: 'env_var' })),
      });
      return toPipeline(answer.body);
    },
    async getPipeline(id) {
      return toPipeline((await call('GET', pipelinePath(id), 'idempotent')).body);
    },
    async cancelPipeline(id) {
      return toPipeline((await call('POST', `${pipelinePath(id)}/cancel`, 'idempotent')).body);
    },
    async pipelineJobs(id) {
      const jobs: GitlabJob[] = [];
      for (let page = 1; page <= JOB_PAGES; page++) {
        const answer = await call('GET', `${pipelinePath(id)}/jobs?per_page=100&page=${page}`, 'idempotent');
        if (!Array.isArray(answer.body)) throw fail(502, 'GitLab answered with something that is not a list of jobs');
        jobs.push(...answer.body.map(toJob));
        if (!answer.headers.get('x-next-page')) break;
      }
      return jobs;
    },
    pausedFor: () => Math.max(0, pausedUntil - Date.now()),
  };
}
