import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { staleEditOf } from '../core/http/http-error';
import { t } from '../core/i18n/i18n';

/**
 * Under a form's error: when the save was refused because someone changed the record meanwhile, offers to
 * reload it (the form reopens on the current record; the user's unsaved changes are dropped on purpose).
 */
export function StaleEditReload({ failure, onReload }: { failure: unknown; onReload?: (record: Record<string, unknown>) => void }) {
  const stale = staleEditOf(failure);
  if (!stale || !onReload) return null;
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      data-testid="stale-edit"
      action={
        <Button color="inherit" size="small" onClick={() => onReload(stale.record)}>
          {t('Reload')}
        </Button>
      }
    >
      {t('Reload the record as it is now? Your unsaved changes are dropped.')}
    </Alert>
  );
}
