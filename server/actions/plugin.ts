// The `actions` plugin: the named handlers, the record check and the value source of this folder (versions, builds,
// office IP, testers' IPs, experiments), registered into the crud plugin's registry (server/crud/registry.ts).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerActions } from './types.ts';
import { deleteExperimentUser, experimentRules } from './experiment.ts';
import { addIpArrayHandler } from './testers-ip.ts';
import { listVersions } from './versions.ts';
import { reloadBuilds, reloadBuildsForWl, updateBuildStatuses } from '../builds/builds.ts';
import { getOfficeIp, officeIpSource, updateOfficeIp } from './office-ip.ts';

/** What this folder registers, by name (server/actions/names.ts lists the names for the build's manifest check). */
export const ownActions: ServerActions = {
  handlers: {
    'versions.list': { run: listVersions },
    'build.reload': { write: true, run: reloadBuilds },
    'build.reloadForWl': { write: true, run: reloadBuildsForWl },
    'build.update': { write: true, run: updateBuildStatuses },
    'officeIp.get': { run: getOfficeIp },
    'officeIp.update': { write: true, run: updateOfficeIp },
    // Its entries are read and checked on a worker thread, before the write's transaction opens.
    'testersIP.addArray': addIpArrayHandler,
    'experiment.deleteUser': { write: true, touches: ['experimentUser'], run: deleteExperimentUser },
  },
  checks: { 'experiment.rules': experimentRules },
  beforeDestroy: {},
  valueSources: { officeIp: officeIpSource },
};

export const actionsPlugin = fp(async (app: FastifyInstance) => app.serverActions.add(ownActions), {
  name: 'actions',
  dependencies: ['handlers'],
  decorators: { fastify: ['serverActions'] },
  fastify: '5.x',
});
