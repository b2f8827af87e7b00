// Name-keyed registries of the calls that are not plain CRUD, referenced from the manifests:
// custom handlers (`"handler": "versions.list"`) and value sources of `forRole` (`"officeIp"`).
import type { Manifest } from '../../kernel/manifest/types.ts';
import type { BeforeDestroy, CustomHandler, RecordCheck, ServerActions, ValueSource } from './types.ts';
import { deleteExperimentUser, experimentRules } from './experiment.ts';
import { addIpArrayHandler } from './testers-ip.ts';
import { listVersions } from './versions.ts';
import { reloadBuilds, reloadBuildsForWl, updateBuildStatuses } from '../builds/builds.ts';
import { getOfficeIp, officeIpSource, updateOfficeIp } from './office-ip.ts';
import { cancelBeforeDelete, gitlabStatus, pipelineJobs, runPipeline } from './gitlab.ts';
import { lookupCombination } from './device/lookup.ts';
import { reportAchievedGoal, reportAppInfo } from './device/reports.ts';

export type { ActionContext, BeforeDestroy, CheckContext, CustomHandler, RecordCheck, ServerActions, ValueSource } from './types.ts';

export const customHandlers: Record<string, CustomHandler> = {
  'versions.list': { run: listVersions },
  'build.reload': { write: true, run: reloadBuilds },
  'build.reloadForWl': { write: true, run: reloadBuildsForWl },
  'build.update': { write: true, run: updateBuildStatuses },
  'officeIp.get': { run: getOfficeIp },
  'officeIp.update': { write: true, run: updateOfficeIp },
  // Its entries are read and checked on a worker thread, before the write's transaction opens.
  'testersIP.addArray': addIpArrayHandler,
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

export const recordChecks: Record<string, RecordCheck> = {
  'experiment.rules': experimentRules,
};

export const beforeDestroy: Record<string, BeforeDestroy> = {
  'gitlab.cancelPipeline': cancelBeforeDelete,
};


export const valueSources: Record<string, ValueSource> = {
  officeIp: officeIpSource,
};

/** This application's server actions, as server/main.ts (and buildApp by default) hands them to the engine. */
export const serverActions: ServerActions = { handlers: customHandlers, checks: recordChecks, beforeDestroy, valueSources };
