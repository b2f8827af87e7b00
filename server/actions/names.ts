// The names of the server's registries (server/actions/index.ts), without loading their code, for the
// build's manifest check. tests/server/manifest-mistakes.test.ts keeps them equal to the registries.
import type { NamesPart } from '../../kernel/manifest/names.ts';

export const SERVER_NAMES = {
  handler: [
    'versions.list',
    'build.reload',
    'build.reloadForWl',
    'build.update',
    'officeIp.get',
    'officeIp.update',
    'testersIP.addArray',
    'experiment.deleteUser',
    'gitlab.runPipeline',
    'gitlab.jobs',
    'gitlab.status',
    'combination.lookup',
    'appinfo.report',
    'achievedGoal.report',
  ],
  check: ['experiment.rules'],
  'before hook': ['gitlab.cancelPipeline'],
  'value source': ['officeIp'],
} satisfies NamesPart;
