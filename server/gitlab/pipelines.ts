// Pipeline status that follows GitLab: the webhook route for GitLab's "Pipeline events", a poller for the
// pipelines still pending or running (for panels GitLab's webhooks cannot reach), and what a change of status
// does: the row is updated once (a conditional UPDATE, so two sources never both act on one change), the
// open Pipelines screens hear of it on the live socket, and a success reloads that whitelabel's builds.
import type { Kysely } from 'kysely';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BEFORE_ROUTES } from '../core/plugin-tree.ts';
import type { GitlabConfig } from '../config.ts';
import type { Engine, HandlerServices } from '../core/context.ts';
import { AppError, fieldError, notFound, unauthorized } from '../errors.ts';
import type { Actor } from '../core/audit-log.ts';
import { reloadBuildsForWl } from '../builds/builds.ts';
import { createGitlabClient, GitlabError, type GitlabClient } from './client.ts';
import { WEBHOOK_SCHEMA } from '../contract/system-routes.ts';
import { routeValidation } from '../core/input.ts';

/** GitLab's pipeline statuses, by how far along they are: a webhook never moves a row back a step. */
const PROGRESS: Record<string, number> = {
  created: 0,
  waiting_for_resource: 0,
  preparing: 0,
  pending: 0,
  scheduled: 0,
  running: 1,
  manual: 1,
  canceling: 1,
  success: 2,
  failed: 2,
  canceled: 2,
  skipped: 2,
};
/** Statuses the poller keeps asking about (anything GitLab may still move on). */
export const ACTIVE_STATUSES = Object.keys(PROGRESS).filter((s) => PROGRESS[s] < 2);
export const isActive = (status: unknown) => typeof status === 'string' && ACTIVE_STATUSES.includes(status);

export const WEBHOOK_PATH = '/v1/gitlab/webhook';
/**
 * The largest pipeline event taken: GitLab's is about 2 KiB plus some 0.6 KiB per job in `builds` (the latest
 * attempt of each job only, gitlab-org/gitlab!53159), so 1 MiB holds a pipeline of over a thousand jobs and a long commit message.
 */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;
const POLLER = 'gitlab poller';
/** The author of what the server does by itself (a reload after a pipeline), for the calls that take an actor. */
const SERVER: Actor = { id: null, email: null, role: null };
const VARIABLES = ['GITLAB_URL', 'GITLAB_TOKEN', 'GITLAB_PROJECT_ID', 'GITLAB_WEBHOOK_SECRET'] as const;

export interface GitlabService {
  /** The variables still to set; empty when GitLab is configured. */
  missing: string[];
  /** "GitLab is not configured: set ..." or null. */
  problem: string | null;
  client?: GitlabClient;
  /** The client, or the 503 that says which variables to set. */
  requireClient(): GitlabClient;
  /** One round of the poller (tests and the first start call it directly). */
  pollOnce(): Promise<void>;
  /** How long the poller waits before its next round: pollMs while pipelines run, longer and longer while none does. */
  nextPollMs(): number;
}

// Kept per database (the app's): the handlers reach it through the registry's services, the plugin set it up.
const services = new WeakMap<Kysely<any>, GitlabService>();

/** The GitLab service of a running app (registerGitlab made it). */
export function gitlabOf(engine: Pick<Engine, 'db'>): GitlabService {
  const service = services.get(engine.db);
  if (!service) throw new Error('registerGitlab() has not run for this app');
  return service;
}

const pipelineTable = (engine: Pick<Engine, 'models'>) => {
  const model = engine.models.get('pipeline');
  if (!model) throw new Error('the GitLab calls need the pipeline entity (schemas/pipeline.json)');
  return model.table;
};

const stamp = () => new Date().toISOString();
const say = (engine: Pick<Engine, 'live'>, line: string) => engine.live.emit('console', `${stamp()} ${line}`);

/** Reloads the builds of the whitelabel whose pipeline succeeded, reporting on the dashboard console. */
async function reloadAfterSuccess(engine: HandlerServices, row: Record<string, unknown>, source: string) {
  const name = String(row.whitelabelName);
  say(engine, `Pipeline ${row.pipelineId} of ${name} (${row.ref}) succeeded: reloading the builds of ${name}`);
  try {
    await engine.db.transaction().execute((trx) =>
      reloadBuildsForWl({ engine, db: trx, input: { whitelabelId: Number(row.whitelabelId) }, actor: SERVER }),
    );
    engine.changes.emit({ entity: 'build', path: source });
  } catch (error) {
    say(engine, `Reload builds for ${name} after pipeline ${row.pipelineId} failed: ${(error as Error).message}`);
  }
}

/**
 * Moves the pipeline GitLab knows as `pipelineId` to `status`. A webhook (`authoritative` false) may arrive out of
 * order, so it never moves a row back (running after success); the poller's GET is the current truth.
 * Resolves true when this call changed the row.
 */
export async function applyStatus(engine: HandlerServices, pipelineId: number, status: string, source: string, authoritative: boolean): Promise<boolean> {
  const table = pipelineTable(engine);
  const row = await engine.db.selectFrom(table).selectAll().where('pipelineId', '=', pipelineId).executeTakeFirst();
  if (!row || row.status === status) return false;
  if (!authoritative && (PROGRESS[status] ?? 1) < (PROGRESS[String(row.status)] ?? 1)) return false;
  const result = await engine.db
    .updateTable(table)
    .set({ status, updatedAt: stamp() })
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  engine.changes.emit({ entity: 'pipeline', path: source });
  say(engine, `Pipeline ${pipelineId} of ${row.whitelabelName} (${row.ref}): ${row.status} -> ${status}`);
  if (status === 'success') await reloadAfterSuccess(engine, row, source);
  return true;
}

/**
 * Asks GitLab about every pipeline still pending or running, a few at a time (the client's slots). Resolves to how
 * many it asked about (a pause for GitLab's 429 counts as following pipelines, so the pause is not stretched).
 */
async function pollRound(engine: HandlerServices, client: GitlabClient, report: (problem: string | null) => void): Promise<number> {
  if (client.pausedFor() > 0) return 1;
  const rows = await engine.db
    .selectFrom(pipelineTable(engine))
    .select(['pipelineId', 'status'])
    .where('status', 'in', ACTIVE_STATUSES)
    .orderBy('updatedAt', 'asc')
    .limit(200)
    .execute();
  let problem: string | null = null;
  await Promise.all(
    rows.map(async (row) => {
      const id = Number(row.pipelineId);
      try {
        const pipeline = await client.getPipeline(id);
        await applyStatus(engine, id, pipeline.status, POLLER, true);
      } catch (error) {
        // Deleted in GitLab: it will never finish, so it stops being polled. A missing project (a wrong
        // GITLAB_PROJECT_ID) says nothing about the pipeline and is reported instead.
        if (error instanceof GitlabError && error.gitlabStatus === 404 && !/project not found/i.test(error.message)) {
          say(engine, `Pipeline ${id} no longer exists in GitLab; it is marked canceled`);
          await applyStatus(engine, id, 'canceled', POLLER, true);
        } else problem ??= (error as Error).message;
      }
    }),
  );
  report(problem);
  return rows.length;
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Sets up GitLab for one app: the client (when configured), the webhook route, the poller (stopped when the
 * app closes) and the live `pipelines` item after every committed change of a pipeline row.
 */
export function registerGitlab(app: FastifyInstance, engine: HandlerServices, config: GitlabConfig): GitlabService {
  const values: Record<(typeof VARIABLES)[number], string | undefined> = {
    GITLAB_URL: config.url,
    GITLAB_TOKEN: config.token,
    GITLAB_PROJECT_ID: config.projectId,
    GITLAB_WEBHOOK_SECRET: config.webhookSecret,
  };
  const missing = VARIABLES.filter((name) => !values[name]);
  const problem = missing.length ? `GitLab is not configured: set ${missing.join(', ')} in the server's environment` : null;
  const client = problem ? undefined : createGitlabClient({ url: config.url!, token: config.token!, projectId: config.projectId!, timeoutMs: config.timeoutMs });

  let lastProblem: string | null = null;
  const report = (now: string | null) => {
    if (now === lastProblem) return;
    say(engine, now ? `GitLab poll failed: ${now}` : 'GitLab poll works again');
    lastProblem = now;
  };
  // While pipelines run the poller asks every pollMs, so a status reaches the panel within seconds without the
  // webhook; while none runs it only looks in the database, waiting twice as long each time up to idlePollMs, and a
  // pipeline being run (or changed by the webhook) brings it back to pollMs.
  const idlePollMs = Math.max(config.pollMs, config.idlePollMs ?? 60_000);
  let nextPollMs = config.pollMs;
  let round: Promise<void> | undefined;
  const pollOnce = () => {
    round ??= (client ? pollRound(engine, client, report) : Promise.resolve(0))
      .then((following) => {
        nextPollMs = following > 0 ? config.pollMs : Math.min(idlePollMs, nextPollMs * 2);
      })
      .catch((error: Error) => report(error.message))
      .finally(() => (round = undefined));
    return round;
  };
  const service: GitlabService = {
    missing,
    problem,
    client,
    requireClient() {
      if (!client) throw new AppError(503, problem!);
      return client;
    },
    pollOnce,
    nextPollMs: () => nextPollMs,
  };
  services.set(engine.db, service);

  let timer: NodeJS.Timeout | undefined;
  let stopped = !client;
  const loop = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void pollOnce().finally(() => !stopped && loop(nextPollMs)), ms);
    timer.unref();
  };
  const stopFeed = engine.changes.on((change) => {
    if (change.entity !== 'pipeline') return;
    // A change another process made is announced by that process when broadcasts reach every process.
    if (!(change.remote && engine.live.everyProcess)) engine.live.emit('pipelines', { path: change.path });
    // A pipeline was run or moved while the poller waited long: follow it at pollMs again (not during a round).
    if (!stopped && !round && nextPollMs > config.pollMs) {
      nextPollMs = config.pollMs;
      loop(config.pollMs);
    }
  });
  if (client) loop(config.pollMs);
  app.addHook('preClose', async () => {
    stopped = true;
    clearTimeout(timer);
    timer = undefined;
    stopFeed();
    await round;
  });

  // GitLab's "Pipeline events" (Settings > Webhooks). Who may send is decided in onRequest, before a byte of the body
  // is read: where GitLab is not configured the route does not exist (404), and a wrong X-Gitlab-Token is a 401.
  app.post(WEBHOOK_PATH, {
    schema: WEBHOOK_SCHEMA,
    // The body is checked by Fastify against the schema (a pipeline event's id and status); the headers by onRequest.
    validatorCompiler: routeValidation({ source: 'json' }).compiler,
    bodyLimit: WEBHOOK_BODY_LIMIT,
    onRequest: async (request) => {
      if (problem) throw notFound(`No route POST ${WEBHOOK_PATH}: GitLab is not configured on this server`);
      const token = request.headers['x-gitlab-token'];
      if (typeof token !== 'string' || !sameSecret(token, config.webhookSecret!)) throw unauthorized('Wrong or missing X-Gitlab-Token');
    },
  }, async (request) => {
    const event = request.headers['x-gitlab-event'];
    // Other events are answered 200: GitLab disables a webhook that keeps failing.
    if (event !== 'Pipeline Hook') return { result: true, data: { ignored: typeof event === 'string' ? event : 'no X-Gitlab-Event' } };
    const body = request.body as { object_kind?: unknown; object_attributes?: { id: number; status: string } };
    // The schema checked what a pipeline event carries; a Pipeline Hook whose body is another event is refused.
    if (body.object_kind !== 'pipeline' || !body.object_attributes) throw fieldError('object_kind', 'object_kind: a Pipeline Hook event is a pipeline event');
    const updated = await applyStatus(engine, body.object_attributes.id, body.object_attributes.status, WEBHOOK_PATH, false);
    return { result: true, data: { updated } };
  });
  return service;
}

/** The `gitlab` plugin: the pipeline webhook and poller, kept per database (gitlabOf). */
export const gitlabPlugin = fp(
  async (app: FastifyInstance, options: { gitlab: GitlabConfig }) => {
    // The builds' reload after a pipeline succeeded is the handler's (build.reloadForWl), given the same services.
    registerGitlab(app, app.serverActions.services, options.gitlab);
  },
  {
    name: 'gitlab',
    dependencies: ['handlers', 'auth', ...BEFORE_ROUTES],
    decorators: { fastify: ['serverActions'] },
    fastify: '5.x',
  },
);
