import ListAlt from '@mui/icons-material/ListAlt';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import useSWR from 'swr';
import { allowedAction } from '../../src/core/access/access';
import { usePanel } from '../../src/core/app/panel';
import type { ListResult } from '../../src/core/http/data-provider';
import { useLiveRefresh } from '../../src/core/live/live-refresh';
import type { ActionDecl } from '../../kernel/manifest/types';
import type { ActionOverrideProps } from '../../src/registry/override-types';
import { durationText, statusColor } from './status';
import { t } from '../../src/core/i18n/i18n';

interface Job {
  id: number;
  stage: string;
  name: string;
  status: string;
  duration: number | null;
  webUrl: string | null;
}

function JobsDialog({ action, row, onClose }: { action: ActionDecl; row: Record<string, unknown>; onClose: () => void }) {
  const panel = usePanel();
  const { data, error, isLoading, mutate } = useSWR(['pipeline-jobs', row.id], () => panel.provider.call<ListResult<Job>>(action, { id: row.id }), {
    revalidateOnFocus: false,
  });
  // The jobs move with the pipeline: follow its live changes, throttled like the list.
  useLiveRefresh('pipelines', () => void mutate());
  const jobs = data?.rows ?? [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="pipeline-jobs-title">
      <DialogTitle id="pipeline-jobs-title">
        {t('Pipeline {id}', { id: String(row.pipelineId) })} · {String((row.whitelabel as { name?: string } | null)?.name ?? '')} {String(row.ref)}
      </DialogTitle>
      {isLoading && <LinearProgress aria-label={t('Loading jobs')} />}
      <DialogContent dividers>
        {error ? (
          <Alert severity="error">{t('Could not read the jobs from GitLab: {message}', { message: (error as Error).message })}</Alert>
        ) : (
          <Table size="small" aria-label={t('Jobs')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('Stage')}</TableCell>
                <TableCell>{t('Name')}</TableCell>
                <TableCell>{t('Status')}</TableCell>
                <TableCell align="right">{t('Duration')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {jobs.map((job) => (
                <TableRow key={job.id}>
                  <TableCell>{job.stage}</TableCell>
                  <TableCell>
                    {job.webUrl ? (
                      <Link href={job.webUrl} target="_blank" rel="noreferrer">
                        {job.name}
                      </Link>
                    ) : (
                      job.name
                    )}
                  </TableCell>
                  <TableCell>
                    <Chip size="small" label={job.status} color={statusColor(job.status)} variant={job.status === 'created' ? 'outlined' : 'filled'} />
                  </TableCell>
                  <TableCell align="right">{durationText(job.duration)}</TableCell>
                </TableRow>
              ))}
              {data && jobs.length === 0 && (
                <TableRow>
                  <TableCell colSpan={4}>{t('GitLab lists no jobs for this pipeline.')}</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        {typeof row.webUrl === 'string' && row.webUrl && (
          <Button href={row.webUrl} target="_blank" rel="noreferrer">
            {t('Open in GitLab')}
          </Button>
        )}
        <Button variant="contained" onClick={onClose}>
          {t('Close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The row's statuses button (`screen.rowActions: ["pipelineStatuses"]`): a modal of the pipeline's jobs from GitLab. */
export function PipelineStatuses({ manifest, role, row }: ActionOverrideProps) {
  const [open, setOpen] = useState(false);
  const action = allowedAction(manifest, 'jobs', role);
  if (!action || !row) return null;
  return (
    <>
      <Tooltip title={t('Statuses')}>
        <IconButton size="small" aria-label={t('Statuses')} color="primary" onClick={() => setOpen(true)}>
          <ListAlt fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && <JobsDialog action={action} row={row} onClose={() => setOpen(false)} />}
    </>
  );
}
