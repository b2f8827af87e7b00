// Name-keyed registries of the calls that are not plain CRUD, referenced from the manifests:
// custom handlers (`"handler": "versions.list"`) and value sources of `forRole` (`"officeIp"`).
import type { Kysely } from 'kysely';
import type { Manifest } from '../../kernel/manifest/types.ts';
import type { Actor } from '../plugins/audit.ts';
import type { Engine } from '../crud/context.ts';
import { deleteExperimentUser, experimentRules } from './experiment.ts';
import { addIpArray, checkIpArray } from './testers-ip.ts';
import { listVersions } from './versions.ts';
import { reloadBuilds, reloadBuildsForWl, updateBuildStatuses } from './builds.ts';
import { getOfficeIp, officeIpSource, updateOfficeIp } from './office-ip.ts';
import { cancelBeforeDelete, gitlabStatus, pipelineJobs, runPipeline } from './gitlab.ts';
import { lookupCombination } from './device/lookup.ts';
import { reportAchievedGoal, reportAppInfo } from './device/reports.ts';

export interface ActionContext {
  engine: Engine;
  /** The connection to use: the write's transaction when the handler writes. */
  db: Kysely<any>;
  input: Record<string, unknown>;
  actor: Actor;
  /** What the handler's `prepare` returned. */
  prepared?: unknown;
  /** The caller's address (request.ip) and the backend's origin as the caller reached it. */
  client?: { ip: string; origin: string };
  /** The call's path, e.g. /v1/combination/get. */
  path?: string;
}

export interface CustomHandler {
  /** Writes run in a transaction with their audit row. */
  write?: boolean;
  /** Entities besides the declaring manifest's that the handler writes, announced on the change feed. */
  touches?: string[];
  /** A body limit above the server's 1 MiB default, for calls that carry a whole file's worth of data. */
  bodyLimit?: number;
  /**
   * Work done before the write's transaction opens, such as a call to another service that must not hold the
   * database meanwhile; its result reaches `run` (and `undo`) as `ctx.prepared`.
   */
  prepare?(ctx: ActionContext): Promise<unknown>;
  /** Takes back what `prepare` did when the write then fails; its own failure is reported, never thrown. */
  undo?(ctx: ActionContext): Promise<void>;
  /**
   * A device handler: it needs no actor, writes no users-log row and may serve only a `public` action (and a
   * public action only such a handler); the engine checks both at start.
   */
  public?: true;
  run(ctx: ActionContext): Promise<unknown>;
}

export const customHandlers: Record<string, CustomHandler> = {
  'versions.list': { run: listVersions },
  'build.reload': { write: true, run: reloadBuilds },
  'build.reloadForWl': { write: true, run: reloadBuildsForWl },
  'build.update': { write: true, run: updateBuildStatuses },
  'officeIp.get': { run: getOfficeIp },
  'officeIp.update': { write: true, run: updateOfficeIp },
  // A 100,000-line import is a few MB of JSON; its entries are checked before the write's transaction opens.
  'testersIP.addArray': { write: true, bodyLimit: 64 * 1024 * 1024, prepare: checkIpArray, run: addIpArray },
  'experiment.deleteUser': { write: true, touches: ['experimentUser'], run: deleteExperimentUser },
  'gitlab.runPipeline': runPipeline,
  'gitlab.jobs': { run: pipelineJobs },
  'gitlab.status': { run: gitlabStatus },
  'combination.lookup': { public: true, run: lookupCombination },
  'appinfo.report': { public: true, bodyLimit: 16 * 1024, run: reportAppInfo },
  'achievedGoal.report': { public: true, bodyLimit: 16 * 1024, run: reportAchievedGoal },
};

/** Stops the start when a public action names a staff handler or a device handler serves a staff action. */
export function checkPublicActions(manifests: Manifest[], handlers: Record<string, CustomHandler> = customHandlers): void {
  for (const m of manifests) {
    for (const [name, action] of Object.entries(m.actions)) {
      const handler = action.kind === 'custom' ? handlers[action.handler!] : undefined;
      if (!handler || !handler.public === !action.public) continue;
      const what = handler.public ? 'is a device handler, the action is not public' : 'is not a device handler, the action is public';
      throw new Error(`${m.entity}.actions.${name} (${action.path}): handler "${action.handler}" ${what}`);
    }
  }
}

/** What a record check may read: the write's transaction, and whether the record is added or edited. */
export interface CheckContext {
  engine: Engine;
  db: Kysely<any>;
  mode: 'create' | 'update';
}

/** Checks named by an action's `check`: the problems of a record about to be stored (empty when none). */
export type RecordCheck = (record: Record<string, unknown>, ctx: CheckContext) => string[] | Promise<string[]>;

export const recordChecks: Record<string, RecordCheck> = {
  'experiment.rules': experimentRules,
};

/**
 * Hooks named by a destroy action's `before`: they run on the stored record before the delete's transaction
 * opens (so a call to another service holds no database lock); a failure refuses the call and keeps the record.
 */
export type BeforeDestroy = (record: Record<string, unknown>, engine: Engine) => Promise<void>;

export const beforeDestroy: Record<string, BeforeDestroy> = {
  'gitlab.cancelPipeline': cancelBeforeDelete,
};

export type ValueSource = (ctx: Omit<ActionContext, 'input'>) => Promise<unknown>;

/** What an application hands the server engine at start-up: its named handlers, checks, hooks and value sources. */
export interface ServerActions {
  handlers: Record<string, CustomHandler>;
  checks: Record<string, RecordCheck>;
  beforeDestroy: Record<string, BeforeDestroy>;
  valueSources: Record<string, ValueSource>;
}

export const valueSources: Record<string, ValueSource> = {
  officeIp: officeIpSource,
};

/** This application's server actions, as server/main.ts (and buildApp by default) hands them to the engine. */
export const serverActions: ServerActions = { handlers: customHandlers, checks: recordChecks, beforeDestroy, valueSources };
