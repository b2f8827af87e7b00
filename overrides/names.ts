// The names this application's overrides register (overrides/index.ts, overrides/widgets.ts), without React or
// MUI, for the checks that run in Node (build, server start). tests/unit/registry-names.test.ts keeps them equal.
import type { NamesPart } from '../kernel/manifest/names.ts';

export const OVERRIDE_NAMES = {
  'screen override': ['combinationsScreen', 'dashboard', 'testRequest'],
  'form override': ['whitelabelForm', 'experimentForm', 'testersPhonesForm'],
  'toolbar override': ['officeIpBox', 'ipImport', 'runPipeline'],
  'row action override': ['deleteCollectionUser', 'pipelineStatuses'],
  widget: ['ipWithMask'],
  cell: [],
  'filter kind': [],
  tone: [],
} satisfies NamesPart;
