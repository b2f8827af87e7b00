import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UploadProgress as Progress } from '../core/http/data-provider';
import { formatBytes, useT } from '../core/i18n/i18n';
import { useStore, type Store } from '../core/store';

/**
 * A form's upload as it goes (the IP import's look): "Sent 1.2 MB of 8.0 MB", a bar, and "Cancel upload" while
 * bytes are still going out. Once all are sent the server is storing them, so no Cancel is offered: it could no
 * longer promise that nothing is stored. Reads its own store so the form is not drawn again for every step.
 */
export function UploadProgress({ progress, onCancel }: { progress: Store<Progress | null>; onCancel: () => void }) {
  const t = useT();
  const now = useStore(progress);
  if (!now) return null;
  const sending = now.sent < now.total;
  const text = sending ? t('Sent {sent} of {total}', { sent: formatBytes(now.sent), total: formatBytes(now.total) }) : t('Sent {total}; waiting for the server…', { total: formatBytes(now.total) });
  const percent = now.total > 0 ? Math.round((now.sent / now.total) * 100) : 0;
  return (
    <Box data-testid="upload-progress" sx={{ mb: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minHeight: 36.5 }}>
        <Typography role="status" sx={{ flex: 1 }}>
          {text}
        </Typography>
        {sending && (
          <Button color="warning" variant="outlined" onClick={onCancel}>
            {t('Cancel upload')}
          </Button>
        )}
      </Stack>
      {sending ? (
        <LinearProgress sx={{ mt: 1 }} variant="determinate" value={percent} aria-label={t('Upload')} aria-valuetext={text} />
      ) : (
        <LinearProgress sx={{ mt: 1 }} aria-label={t('Upload')} aria-valuetext={text} />
      )}
    </Box>
  );
}
