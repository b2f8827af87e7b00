import type { Widget } from '@rjsf/utils';
import { IpWithMaskWidget } from './ip-import/IpWithMaskWidget';

/** Bespoke RJSF widgets keyed by the name of `form.ui.<field>.widget`; merged over src/registry/widgets.tsx. */
export const widgetOverrides: Record<string, Widget> = {
  ipWithMask: IpWithMaskWidget,
};
