import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { useCallback, useRef, useState } from 'react';

/**
 * A promise-based confirmation: `await confirm('Delete this item?')` resolves true on OK; `await alert(text)`
 * shows a message with OK only. Render `dialog` once in the screen.
 */
export function useConfirm() {
  const [text, setText] = useState<string | null>(null);
  const [alertOnly, setAlertOnly] = useState(false);
  const resolver = useRef<(ok: boolean) => void>(() => undefined);
  const ask = useCallback(
    (message: string, onlyOk: boolean) =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setAlertOnly(onlyOk);
        setText(message);
      }),
    [],
  );
  const confirm = useCallback((message: string) => ask(message, false), [ask]);
  const alert = useCallback((message: string) => ask(message, true).then(() => undefined), [ask]);
  const close = (ok: boolean) => {
    setText(null);
    resolver.current(ok);
  };
  const dialog = (
    <Dialog open={text !== null} onClose={() => close(false)} maxWidth="xs" fullWidth>
      <DialogContent>
        <DialogContentText sx={{ color: 'text.primary', fontSize: 17 }}>{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        {!alertOnly && <Button onClick={() => close(false)}>Cancel</Button>}
        <Button variant="contained" color={alertOnly ? 'primary' : 'error'} onClick={() => close(true)} autoFocus>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { confirm, alert, dialog };
}
