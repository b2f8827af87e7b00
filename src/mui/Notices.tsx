import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import AlertTitle from '@mui/material/AlertTitle';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import { dismiss, notices } from '../core/app/notices';
import { useStore } from '../core/store';

/** The notice stack of the write status machine and the session (bottom right, newest last). */
export function Notices() {
  const list = useStore(notices);
  return (
    <Stack spacing={1} sx={{ position: 'fixed', right: 16, bottom: 16, zIndex: 1500, width: 360, maxWidth: 'calc(100vw - 32px)' }}>
      {list.map((n) => (
        <Snackbar
          key={n.id}
          open
          autoHideDuration={n.action ? null : n.severity === 'error' ? 8000 : 4000}
          onClose={(_, reason) => reason !== 'clickaway' && dismiss(n.id)}
          sx={{ position: 'static', transform: 'none' }}
        >
          <Alert
            // A failure interrupts (alert); every other notice is announced politely when the reader is idle.
            role={n.severity === 'error' ? 'alert' : 'status'}
            data-testid="notice"
            severity={n.severity}
            variant="filled"
            onClose={() => dismiss(n.id)}
            action={
              n.action && (
                <Button color="inherit" size="small" variant="outlined" onClick={n.action.run}>
                  {n.action.label}
                </Button>
              )
            }
            sx={{ width: '100%' }}
          >
            {n.title && <AlertTitle>{n.title}</AlertTitle>}
            {n.text}
            {n.detail && (
              <div data-testid="notice-detail" style={{ marginTop: 4 }}>
                {n.detail}
              </div>
            )}
          </Alert>
        </Snackbar>
      ))}
    </Stack>
  );
}
