// A list's add/edit form, drawn once unseen while the list is idle. The first opening of a form on a page drew the
// dialog, RJSF's fields and MUI's inputs for the first time: emotion inserted their styles, which restyles the whole
// page, and the browser ran their code for the first time. On the Platforms list in Chromium (issue 14) the first
// edit click to a filled form took ~140 ms and the second ~65 ms; with this warm-up the first takes ~90 ms (bench
// client: 120 -> 91 ms, same run). What the second opening had is drawn here into a node of its own: its dialog's
// portal kept there, no focus moved, no scroll locked, nothing called. The cost a page pays after any form was
// drawn (the grid's later renders run code now shared with the form: a 500-row page drew ~50 ms slower in the same
// bench, as it does after a first edit without this) comes at the first idle moment instead of the first edit.
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

/**
 * Draws `Form` once, unseen, for `record` (an edit form) or for a new record (null); answers how to drop it sooner.
 * @example const stop = warmUpForm(FormModal, { panel, theme, manifest, role, record: rows[0] })
 */
export function warmUpForm(
  Form: ComponentType<FormOverrideProps>,
  { panel, theme, manifest, role, record }: { panel: Panel; theme: Theme; manifest: Manifest; role: Role; record: Record<string, unknown> | null },
): () => void {
  return drawUnseen({ panel, theme: (host) => dialogsInside(theme, host), drawn: 'form', giveUpMs: GIVE_UP_MS }, () => (
    <Form manifest={manifest} role={role} record={record} open onClose={noop} onSaved={noop} onReload={noop} />
  ));
}
