import Alert from '@mui/material/Alert';
import { useT } from '../core/i18n/i18n';
import { useRecordChange } from '../core/live/use-live-list';

/**
 * In an open edit form: says that someone changed the record since the form opened, and who (live lists). Saving
 * anyway is refused with the reload offer (server/crud/versions.ts), so nobody overwrites the change unseen.
 */
export function RecordChangedNotice({ entity, id }: { entity: string; id: unknown }) {
  const change = useRecordChange(entity, id);
  const t = useT();
  if (!change) return null;
  const when = change.at.slice(11, 19);
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="record-changed">
      {t('This record was changed by {who} at {when} UTC after you opened it. Close the form and open it again to see the changes.', {
        who: change.by ?? t('a device or a job'),
        when,
      })}
    </Alert>
  );
}
