import UploadFile from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import useSWR from 'swr';
import { actionOfKind } from '../../src/core/access/access';
import { usePanel } from '../../src/core/app/panel';
import { useWrite } from '../../src/core/app/write-status';
import { actionLabel } from '../../src/core/list/record-actions';
import type { FormOverrideProps } from '../../src/registry/override-types';
import { ASSETS, ERROR_HEADING, reachableAssets, whitelabelErrors, type AssetField } from './rules';

const PICKERS: { field: AssetField; label: string; accept: string }[] = [
  { field: 'imageHD', label: 'Logo 1280x720 (PNG)', accept: '.png,image/png' },
  { field: 'imageFHD', label: 'Logo 1920x1080 (PNG)', accept: '.png,image/png' },
  { field: 'cssConfig', label: 'CSS', accept: '.css,text/css' },
];

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The whitelabel add/edit modal (`form.override: "whitelabelForm"`): the generic fields plus SPEC 5's rule that
 * on edit a file may be left out only while its stored asset is reachable, with the spec's Russian messages.
 */
export default function WhitelabelForm({ manifest, role, record, open, onClose, onSaved }: FormOverrideProps) {
  const panel = usePanel();
  const action = actionOfKind(manifest, record ? 'update' : 'create', role);
  const [name, setName] = useState(text(record?.name));
  const [feUrl, setFeUrl] = useState(text(record?.feUrl));
  const [deployConfiguration, setDeploy] = useState(record?.deployConfiguration ? JSON.stringify(record.deployConfiguration, null, 2) : '');
  const [maxVersion, setMaxVersion] = useState(text(record?.maxVersion));
  const [files, setFiles] = useState<Partial<Record<AssetField, File>>>({});
  const [errors, setErrors] = useState<string[]>([]);
  const [checking, setChecking] = useState(false);
  const write = useWrite(action ? actionLabel(action[1]) : 'Save');
  const versionsAction = panel.manifests.byEntity.get('version')?.actions.list;
  const { data: versions } = useSWR(versionsAction ? ['versions', versionsAction.path] : null, () =>
    panel.provider.call<{ rows: string[] }>(versionsAction!, {}),
  );
  const pending = checking || write.status === 'pending';

  async function submit() {
    if (!action) return;
    const chosen = new Set(Object.keys(files) as AssetField[]);
    setChecking(true);
    // Only an edit may keep stored files, and only those the asset host still serves.
    const reachable = record ? await reachableAssets(panel.config.backendUrl, text(record.name)) : null;
    setChecking(false);
    const found = whitelabelErrors({ name, feUrl, deployConfiguration }, chosen, reachable);
    setErrors(found);
    if (found.length) return;
    const payload: Record<string, unknown> = { name, feUrl, deployConfiguration, maxVersion, ...files };
    if (record) payload.id = record.id;
    if (await write.run(() => panel.provider.call(action[1], payload))) onSaved();
  }

  return (
    <Dialog open={open} onClose={pending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="whitelabel-form-title">
      <DialogTitle id="whitelabel-form-title">{record ? 'Edit whitelabel' : 'Add whitelabel'}</DialogTitle>
      <DialogContent dividers>
        {errors.length > 0 && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="whitelabel-errors">
            <AlertTitle>{ERROR_HEADING}</AlertTitle>
            <ul style={{ margin: 0, paddingLeft: 20 }}>
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </Alert>
        )}
        {write.error && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
            {write.error}
          </Alert>
        )}
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} disabled={Boolean(record) || pending} helperText={record ? 'The name names the asset files, so it stays' : 'Letters, digits, - and _'} />
          <TextField label="FE URL" value={feUrl} onChange={(e) => setFeUrl(e.target.value)} disabled={pending} />
          {PICKERS.map(({ field, label, accept }) => {
            const stored = record && text(record[field]);
            return (
              <Stack key={field} direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
                <Button component="label" variant="outlined" size="small" startIcon={<UploadFile />} disabled={pending} sx={{ flexShrink: 0, minWidth: 220, justifyContent: 'flex-start' }}>
                  {label}
                  <input
                    hidden
                    type="file"
                    accept={accept}
                    data-testid={`pick-${field}`}
                    onChange={(e) => {
                      const file = e.target.files?.[0];
                      e.target.value = '';
                      if (file) setFiles((f) => ({ ...f, [field]: file }));
                    }}
                  />
                </Button>
                <Typography variant="body2" noWrap color={files[field] ? 'text.primary' : 'text.secondary'}>
                  {files[field]?.name ?? (stored ? 'Keeping the stored file' : 'No file chosen')}
                </Typography>
                {!files[field] && stored && (
                  <Link href={`${panel.config.backendUrl}${ASSETS.find((a) => a.field === field)!.url(text(record.name))}`} target="_blank" rel="noreferrer" variant="body2">
                    open
                  </Link>
                )}
              </Stack>
            );
          })}
          <TextField
            label="Deploy configuration (JSON object)"
            value={deployConfiguration}
            onChange={(e) => setDeploy(e.target.value)}
            disabled={pending}
            multiline
            minRows={3}
            slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
          />
          <Autocomplete
            freeSolo
            options={versions?.rows ?? []}
            value={maxVersion}
            disabled={pending}
            onChange={(_, next) => setMaxVersion(next ?? '')}
            onInputChange={(_, next, reason) => reason === 'input' && setMaxVersion(next)}
            renderInput={(params) => <TextField {...params} label="Max version" helperText="XX.YY.ZZ, chosen from the list or typed" />}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button variant="contained" disabled={!action || pending} onClick={() => void submit()} startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}
