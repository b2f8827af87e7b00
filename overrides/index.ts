import type { OverrideMap } from '../src/registry/override-types';

/**
 * The bespoke client pieces, registered by the name a manifest references (see src/registry/override-types.ts).
 * Register whole screens and forms with React.lazy so they load with their route or modal, e.g.
 * `screens: { dashboard: lazy(() => import('./dashboard/DashboardScreen')) }` and `"screen": {"override": "dashboard"}`.
 * RJSF form widgets live in overrides/widgets.ts, which loads with the form code.
 */
export const overrides: OverrideMap = {
  screens: {},
  forms: {},
  toolbar: {},
  rowActions: {},
  cells: {},
  filters: {},
  tones: {},
};
