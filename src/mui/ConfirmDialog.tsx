import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { useCallback, useRef, useState } from 'react';
import { t } from '../core/i18n/i18n';

/**
 * A promise-based confirmation: `await confirm('Delete "Tizen"?')` resolves true on OK; `await alert(text)`
 * shows a message with OK only; `detail` is a second, smaller line. Render `dialog` once in the screen.
 */
export function useConfirm() {
  const [text, setText] = useState<string | null>(null);
  const [detail, setDetail] = useState<string | undefined>();
  const [alertOnly, setAlertOnly] = useState(false);
  // The dialog mounts at its first question, not with the button: a list draws one such button per row.
  const [asked, setAsked] = useState(false);
  const resolver = useRef<(ok: boolean) => void>(() => undefined);
  const ask = useCallback(
    (message: string, onlyOk: boolean, more?: string) =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setAsked(true);
        setAlertOnly(onlyOk);
        setDetail(more);
        setText(message);
      }),
    [],
  );
  const confirm = useCallback((message: string, more?: string) => ask(message, false, more), [ask]);
  const alert = useCallback((message: string) => ask(message, true).then(() => undefined), [ask]);
  const close = (ok: boolean) => {
    setText(null);
    resolver.current(ok);
  };
  const dialog = asked && (
    // Named by its question (it has no title): a dialog without a name is announced as just "dialog".
    <Dialog open={text !== null} onClose={() => close(false)} maxWidth="xs" fullWidth slotProps={{ paper: { 'aria-label': text ?? undefined } }}>
      <DialogContent>
        <DialogContentText sx={{ color: 'text.primary', fontSize: 17 }}>{text}</DialogContentText>
        {detail && (
          <DialogContentText sx={{ mt: 1 }} data-testid="confirm-detail">
            {detail}
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        {/* A question starts on Cancel: Enter out of habit must not delete. */}
        {!alertOnly && (
          <Button onClick={() => close(false)} autoFocus>
            {t('Cancel')}
          </Button>
        )}
        <Button variant="contained" color={alertOnly ? 'primary' : 'error'} onClick={() => close(true)} autoFocus={alertOnly}>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { confirm, alert, dialog };
}
