import Switch from '@mui/material/Switch';
import { canCall } from '../../core/access/can-call';
import { usePanel } from '../../core/app/panel';
import { useWrite } from '../../core/app/write-status';
import { useListContext } from '../../core/list/list-context';
import { actionLabel, keyParams, refusal, versionOf } from '../../core/list/record-actions';
import type { CellProps } from '../../registry/override-types';
import { t } from '../../core/i18n/i18n';
import { LazyTooltip } from '../LazyTooltip';

/**
 * `cell: "toggle"`: the switch of the manifest's toggle action on this column's field. Disabled when the role
 * may not call it or its refuseWhen rule matches; after a failed toggle the list is reloaded (SPEC 4).
 */
export function ToggleCell({ value, row, column }: CellProps) {
  const { manifest, role, reload, callParams } = useListContext();
  const panel = usePanel();
  const action = Object.values(manifest.actions).find((a) => a.kind === 'toggle' && a.field === column.field);
  const label = column.label ?? column.field;
  // The notice names the switch it flipped ("Change active request status"), unless the manifest labels the call.
  const write = useWrite(action ? actionLabel(action, t('Change {field}', { field: label.toLowerCase() })) : t('Change'));
  const allowed = Boolean(action && canCall(manifest, action, role));
  const refused = action ? refusal(row, action) : null;
  const control = (
    <Switch
      size="small"
      checked={Boolean(value)}
      disabled={!allowed || Boolean(refused) || write.status === 'pending'}
      slotProps={{ input: { 'aria-label': `${label} ${String(row.id ?? '')}`.trim() } }}
      onChange={() => {
        if (!action) return;
        // The row's version goes along: a toggle of a record someone changed meanwhile is refused, not applied blind.
        void write.run(() => panel.provider.call(action, { ...callParams, ...keyParams(row, action), ...versionOf(manifest, row) })).then(() => reload());
      }}
    />
  );
  return refused ? (
    <LazyTooltip title={refused}>
      <span>{control}</span>
    </LazyTooltip>
  ) : (
    control
  );
}
