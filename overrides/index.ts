import { lazyPiece } from '../src/registry/lazy-piece';
import type { OverrideMap } from '../src/registry/override-types';
import { lazyForm } from './lazy-form';
import LazyWhitelabelForm from './whitelabel/LazyWhitelabelForm';

/**
 * The bespoke client pieces, registered by the name a manifest references (see src/registry/override-types.ts).
 * Register screens, toolbar and row pieces with lazyPiece, so each loads with the screens that name it, e.g.
 * `screens: { dashboard: lazyPiece(() => import('./dashboard/DashboardScreen')) }` and `"screen": {"override": "dashboard"}`;
 * forms with lazyForm, so they load when their modal first opens.
 * RJSF form widgets live in overrides/widgets.ts, which loads with the form code.
 */
export const overrides: OverrideMap = {
  screens: {
    combinationsScreen: lazyPiece(() => import('./combination/CombinationsScreen')),
    dashboard: lazyPiece(() => import('./dashboard/DashboardScreen')),
    testRequest: lazyPiece(() => import('./test-request/TestRequestScreen')),
  },
  forms: {
    whitelabelForm: LazyWhitelabelForm,
    experimentForm: lazyForm(() => import('./experiment/ExperimentForm')),
    testersPhonesForm: lazyForm(() => import('./testers-phones/TestersPhonesForm')),
  },
  toolbar: {
    officeIpBox: lazyPiece(() => import('./combination/OfficeIpBox')),
    ipImport: lazyPiece(() => import('./ip-import/IpImportButton').then((m) => ({ default: m.IpImportButton }))),
    runPipeline: lazyPiece(() => import('./pipelines/RunPipeline')),
  },
  rowActions: {
    deleteCollectionUser: lazyPiece(() => import('./experiment/DeleteCollectionUser').then((m) => ({ default: m.DeleteCollectionUser }))),
    pipelineStatuses: lazyPiece(() => import('./pipelines/PipelineStatuses').then((m) => ({ default: m.PipelineStatuses }))),
  },
  cells: {},
  filters: {},
  tones: {},
};
