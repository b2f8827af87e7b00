import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { useCallback, useRef, useState } from 'react';

/**
 * A promise-based confirmation: `await confirm('Delete this item?')` resolves true on OK.
 * Render `dialog` once in the screen.
 */
export function useConfirm() {
  const [text, setText] = useState<string | null>(null);
  const resolver = useRef<(ok: boolean) => void>(() => undefined);
  const confirm = useCallback(
    (message: string) =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setText(message);
      }),
    [],
  );
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
        <Button onClick={() => close(false)}>Cancel</Button>
        <Button variant="contained" color="error" onClick={() => close(true)} autoFocus>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { confirm, dialog };
}
