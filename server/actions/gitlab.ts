// The calls of the Pipelines screen under /v1/admin/gitlab/ (schemas/pipeline.json): run a pipeline of a
// whitelabel, the jobs of one for the statuses modal, whether GitLab is configured, and the cancel that runs
// before a pipeline's record is deleted. The GitLab side lives in server/gitlab/.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fieldError, notFound } from '../errors.ts';
import { readOne } from '../core/rows.ts';
import { GitlabError, type GitlabPipeline } from '../gitlab/client.ts';
import { gitlabOf, isActive, WEBHOOK_PATH } from '../gitlab/pipelines.ts';
import type { ActionContext, CustomHandler, HandlerServices, ServerActions } from './types.ts';

/** The CI variables a pipeline started from the panel carries (docs/manifests.md). */
export const CI_VARIABLES = { name: 'WHITELABEL_NAME', id: 'WHITELABEL_ID' } as const;

const model = (engine: Pick<HandlerServices, 'models'>, entity: string) => {
  const found = engine.models.get(entity);
  if (!found) throw new Error(`the GitLab calls need the ${entity} entity`);
  return found;
};

interface Started {
  pipeline: GitlabPipeline;
  whitelabel: { id: number; name: string };
}

const say = (engine: Pick<HandlerServices, 'live'>, line: string) => engine.live.emit('console', `${new Date().toISOString()} ${line}`);

/**
 * POST runPipeline {version, whitelabelId}: GitLab creates the pipeline first (outside any transaction), then
 * its record is stored with the audit row; if storing fails, the new pipeline is canceled again, so GitLab and
 * the panel never disagree about which pipelines the panel started.
 */
export const runPipeline: CustomHandler = {
  write: true,
  async prepare({ engine, db, input }): Promise<Started> {
    const client = gitlabOf(engine).requireClient();
    const whitelabel = await db
      .selectFrom(model(engine, 'whitelabel').table)
      .select(['id', 'name'])
      .where('id', '=', input.whitelabelId as number)
      .executeTakeFirst();
    if (!whitelabel) throw fieldError('whitelabelId', `whitelabelId: no whitelabel with id ${String(input.whitelabelId)}`);
    const version = String(input.version);
    try {
      const pipeline = await client.createPipeline(version, { [CI_VARIABLES.name]: String(whitelabel.name), [CI_VARIABLES.id]: String(whitelabel.id) });
      return { pipeline, whitelabel: { id: Number(whitelabel.id), name: String(whitelabel.name) } };
    } catch (error) {
      if (error instanceof GitlabError && error.gitlabStatus === 400) {
        throw fieldError('version', `version: GitLab cannot run a pipeline for version ${version}: ${error.message.replace(/^.*?\(HTTP 400\):?\s*/, '')}`);
      }
      throw error;
    }
  },
  async run({ engine, db, actor, prepared }) {
    const { pipeline, whitelabel } = prepared as Started;
    const pipelines = model(engine, 'pipeline');
    const now = new Date().toISOString();
    const inserted = await db
      .insertInto(pipelines.table)
      .values({
        pipelineId: pipeline.id,
        ref: pipeline.ref,
        status: pipeline.status,
        webUrl: pipeline.webUrl,
        whitelabelId: whitelabel.id,
        whitelabelName: whitelabel.name,
        userId: actor.id,
        userEmail: actor.email,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    say(engine, `Pipeline ${pipeline.id} of ${whitelabel.name} (${pipeline.ref}) started by ${actor.email}`);
    return readOne(engine, pipelines, Number(inserted.id), db);
  },
  async undo({ engine, prepared }) {
    const { pipeline } = prepared as Started;
    await gitlabOf(engine).client?.cancelPipeline(pipeline.id);
    say(engine, `Pipeline ${pipeline.id} was canceled again: its record could not be stored`);
  },
};

/** The record of `id`, or the 404 naming it. */
async function pipelineRow({ engine, input }: ActionContext) {
  const row = await readOne(engine, model(engine, 'pipeline'), input.id as number);
  if (!row) throw notFound(`No pipeline with id ${String(input.id)}`);
  return row;
}

/** GET getJobs {id}: the jobs of one pipeline as GitLab lists them, for the statuses modal. */
export async function pipelineJobs(ctx: ActionContext) {
  const client = gitlabOf(ctx.engine).requireClient();
  const row = await pipelineRow(ctx);
  const jobs = await client.pipelineJobs(Number(row.pipelineId));
  return { rows: jobs, count: jobs.length };
}

/** GET getStatus: whether GitLab is configured, and if not, which variables to set. */
export async function gitlabStatus({ engine }: ActionContext) {
  const service = gitlabOf(engine);
  return { configured: !service.problem, missing: service.missing, message: service.problem, webhookPath: WEBHOOK_PATH };
}

/**
 * Before a pipeline's record is deleted: a pipeline still pending or running is canceled in GitLab. When GitLab
 * cannot cancel it the delete is refused and the record kept (it is the panel's only handle on that pipeline).
 * Without a configured GitLab there is nothing to cancel on.
 */
export async function cancelBeforeDelete(record: Record<string, unknown>, engine: HandlerServices): Promise<void> {
  const client = gitlabOf(engine).client;
  if (!client || !isActive(record.status)) return;
  const id = Number(record.pipelineId);
  try {
    await client.cancelPipeline(id);
    say(engine, `Pipeline ${id} of ${record.whitelabelName} (${record.ref}) canceled in GitLab before its record was deleted`);
  } catch (error) {
    if (error instanceof GitlabError && error.gitlabStatus === 404) return;
    const { status, message } = error as GitlabError;
    throw new GitlabError(status ?? 502, `Pipeline ${id} is still ${record.status} and GitLab could not cancel it, so its record is kept: ${message}`);
  }
}

/** What this file registers, by name: the Pipelines screen's calls and the cancel before a pipeline's delete. */
export const gitlabActions: ServerActions = {
  handlers: {
    'gitlab.runPipeline': runPipeline,
    'gitlab.jobs': { run: pipelineJobs },
    'gitlab.status': { run: gitlabStatus },
  },
  checks: {},
  beforeDestroy: { 'gitlab.cancelPipeline': cancelBeforeDelete },
  valueSources: {},
};

/**
 * The `gitlab-actions` plugin: registers the GitLab handlers into the crud plugin's registry. They reach the GitLab
 * service of the `gitlab` plugin when called (gitlabOf), so they need not wait for it.
 */
export const gitlabActionsPlugin = fp(async (app: FastifyInstance) => app.serverActions.add(gitlabActions), {
  name: 'gitlab-actions',
  dependencies: ['handlers'],
  decorators: { fastify: ['serverActions'] },
  fastify: '5.x',
});
