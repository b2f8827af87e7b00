import type { Widget } from '@rjsf/utils';

/** Bespoke RJSF widgets keyed by the name of `form.ui.<field>.widget`; merged over src/registry/widgets.tsx. */
export const widgetOverrides: Record<string, Widget> = {};
