// Name-keyed registries of the calls that are not plain CRUD, referenced from the manifests:
// custom handlers (`"handler": "versions.list"`) and value sources of `forRole` (`"officeIp"`).
import type { Kysely } from 'kysely';
import type { Actor } from '../plugins/audit.ts';
import type { Engine } from '../crud/context.ts';
import { listVersions } from './versions.ts';
import { reloadBuilds, reloadBuildsForWl, updateBuildStatuses } from './builds.ts';
import { getOfficeIp, officeIpSource, updateOfficeIp } from './office-ip.ts';

export interface ActionContext {
  engine: Engine;
  /** The connection to use: the write's transaction when the handler writes. */
  db: Kysely<any>;
  input: Record<string, unknown>;
  actor: Actor;
}

export interface CustomHandler {
  /** Writes run in a transaction with their audit row. */
  write?: boolean;
  run(ctx: ActionContext): Promise<unknown>;
}

export const customHandlers: Record<string, CustomHandler> = {
  'versions.list': { run: listVersions },
  'build.reload': { write: true, run: reloadBuilds },
  'build.reloadForWl': { write: true, run: reloadBuildsForWl },
  'build.update': { write: true, run: updateBuildStatuses },
  'officeIp.get': { run: getOfficeIp },
  'officeIp.update': { write: true, run: updateOfficeIp },
};

export type ValueSource = (ctx: Omit<ActionContext, 'input'>) => Promise<unknown>;

export const valueSources: Record<string, ValueSource> = {
  officeIp: officeIpSource,
};
