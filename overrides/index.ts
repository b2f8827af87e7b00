import { lazy } from 'react';
import type { OverrideMap } from '../src/registry/override-types';
import OfficeIpBox from './combination/OfficeIpBox';
import { DeleteCollectionUser } from './experiment/DeleteCollectionUser';
import { IpImportButton } from './ip-import/IpImportButton';
import { lazyForm } from './lazy-form';
import LazyWhitelabelForm from './whitelabel/LazyWhitelabelForm';
import { PipelineStatuses } from './pipelines/PipelineStatuses';
import RunPipeline from './pipelines/RunPipeline';

/**
 * The bespoke client pieces, registered by the name a manifest references (see src/registry/override-types.ts).
 * Register whole screens and forms with React.lazy so they load with their route or modal, e.g.
 * `screens: { dashboard: lazy(() => import('./dashboard/DashboardScreen')) }` and `"screen": {"override": "dashboard"}`.
 * RJSF form widgets live in overrides/widgets.ts, which loads with the form code.
 */
export const overrides: OverrideMap = {
  screens: {
    combinationsScreen: lazy(() => import('./combination/CombinationsScreen')),
    dashboard: lazy(() => import('./dashboard/DashboardScreen')),
    testRequest: lazy(() => import('./test-request/TestRequestScreen')),
  },
  forms: {
    whitelabelForm: LazyWhitelabelForm,
    experimentForm: lazyForm(() => import('./experiment/ExperimentForm')),
    testersPhonesForm: lazyForm(() => import('./testers-phones/TestersPhonesForm')),
  },
  toolbar: {
    officeIpBox: OfficeIpBox,
    ipImport: IpImportButton,
    runPipeline: RunPipeline,
  },
  rowActions: {
    deleteCollectionUser: DeleteCollectionUser,
    pipelineStatuses: PipelineStatuses,
  },
  cells: {},
  filters: {},
  tones: {},
};
