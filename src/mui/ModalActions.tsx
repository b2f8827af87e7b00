import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogActions from '@mui/material/DialogActions';
import { t } from '../core/i18n/i18n';

/**
 * The Cancel / OK footer of every modal: both wait while the write is pending, OK shows the spinner and stays
 * disabled while `okDisabled` (the modal's own gate) holds. Ctrl+Enter presses OK (src/mui/KeyboardShortcuts.tsx).
 * @example <ModalActions pending={pending} okDisabled={!ready} onCancel={onClose} onOk={() => void save()} />
 */
export function ModalActions({ pending, okDisabled, onCancel, onOk }: { pending: boolean; okDisabled?: boolean; onCancel: () => void; onOk: () => void }) {
  return (
    <DialogActions sx={{ px: 3, py: 1.5 }}>
      <Button onClick={onCancel} disabled={pending}>
        {t('Cancel')}
      </Button>
      <Button variant="contained" data-shortcut="submit" disabled={Boolean(okDisabled) || pending} onClick={onOk} startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}>
        OK
      </Button>
    </DialogActions>
  );
}
