// A list's add/edit form, drawn once unseen when the user leaves the list alone. The first opening of a form on a
// page drew the dialog, RJSF's fields and MUI's inputs for the first time: emotion serialized and inserted their
// styles (a restyle of the whole page) and the browser ran their code for the first time, so the first edit click
// took ~1.5x as long as the next ones. What that first opening does is done here, unseen, into a node of its own:
// the dialog's portal kept there, no focus taken or given back, no scroll locked, nothing called (the unseen root's
// provider refuses every call). It starts only after a second without input and gives way to the next press or key
// (when-drawn.ts whenQuiet), so it never runs under the user's hands.
import type { Theme } from '@mui/material/styles';
import type { ComponentType } from 'react';
import type { Panel } from '../core/app/panel';
import type { Manifest, Role } from '../../kernel/manifest/types';
import type { FormOverrideProps } from '../registry/override-types';
import { drawUnseen } from './unseen-root';

/** Dropped anyway this long after it started (its fields never came). */
const GIVE_UP_MS = 2000;
const noop = () => undefined;

/** The theme with every dialog kept inside `host`: no portal to the body, no focus taken or given back, no scroll lock. */
function dialogsInside(theme: Theme, host: HTMLElement): Theme {
  const components = theme.components ?? {};
  const dialog = components.MuiDialog ?? {};
  return {
    ...theme,
    components: {
      ...components,
      MuiDialog: {
        ...dialog,
        defaultProps: { ...dialog.defaultProps, container: host, disableScrollLock: true, disableAutoFocus: true, disableEnforceFocus: true, disableRestoreFocus: true },
      },
    },
  };
}

export interface FormWarmUp {
  panel: Panel;
  theme: Theme;
  manifest: Manifest;
  role: Role;
  /** The record of an edit form, or null for the add form. */
  record: Record<string, unknown> | null;
  /** Called once the form was drawn (and dropped). */
  onDrawn: () => void;
}

/**
 * Draws `Form` once, unseen, for `record` (an edit form) or a new record (null); answers how to drop it sooner.
 * @example const stop = warmUpForm(FormModal, { panel, theme, manifest, role, record: rows[0], onDrawn })
 */
export function warmUpForm(Form: ComponentType<FormOverrideProps>, { panel, theme, manifest, role, record, onDrawn }: FormWarmUp): () => void {
  return drawUnseen(
    { panel, theme: (host) => dialogsInside(theme, host), drawn: 'form', giveUpMs: GIVE_UP_MS, onDrawn },
    <Form manifest={manifest} role={role} record={record} open onClose={noop} onSaved={noop} onReload={noop} />,
  );
}
