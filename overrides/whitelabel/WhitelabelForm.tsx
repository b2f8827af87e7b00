import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { actionOfKind } from '../../src/core/access/access';
import { usePanel } from '../../src/core/app/panel';
import { useWrite } from '../../src/core/app/write-status';
import { actionLabel, versionOf } from '../../src/core/list/record-actions';
import type { FormOverrideProps } from '../../src/registry/override-types';
import { ASSETS, ERROR_HEADING, reachableAssets, whitelabelErrors, type AssetField } from './rules';
import { FilePicker } from '../../src/mui/FilePicker';
import { ModalActions } from '../../src/mui/ModalActions';
import { StaleEditReload } from '../../src/mui/StaleEditReload';
import { VersionSelect } from '../../src/mui/VersionSelect';
import { t } from '../../src/core/i18n/i18n';

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
export default function WhitelabelForm({ manifest, role, record, open, onClose, onSaved, onReload }: FormOverrideProps) {
  const panel = usePanel();
  const action = actionOfKind(manifest, record ? 'update' : 'create', role);
  const [name, setName] = useState(text(record?.name));
  const [feUrl, setFeUrl] = useState(text(record?.feUrl));
  const [deployConfiguration, setDeploy] = useState(record?.deployConfiguration ? JSON.stringify(record.deployConfiguration, null, 2) : '');
  const [maxVersion, setMaxVersion] = useState(text(record?.maxVersion));
  const [files, setFiles] = useState<Partial<Record<AssetField, File>>>({});
  const [errors, setErrors] = useState<string[]>([]);
  const [checking, setChecking] = useState(false);
  // Which stored assets the asset host serves, asked as the edit modal opens (SPEC 5): undefined while asking.
  const [reachable, setReachable] = useState<Record<AssetField, boolean> | undefined>();
  const write = useWrite(action ? actionLabel(action[1]) : t('Save'));
  const pending = checking || write.status === 'pending';
  const host = panel.config.backendUrl;
  const storedName = text(record?.name);
  useEffect(() => {
    if (!record) return;
    let current = true;
    void reachableAssets(host, storedName).then((answer) => current && setReachable(answer));
    return () => {
      current = false;
    };
  }, [record, host, storedName]);

  async function submit() {
    if (!action) return;
    const chosen = new Set(Object.keys(files) as AssetField[]);
    // Only an edit may keep stored files, and only those the asset host still serves.
    let known = reachable ?? null;
    if (record && !known) {
      setChecking(true);
      known = await reachableAssets(host, storedName);
      setChecking(false);
    }
    const label = (field: string) => manifest.record?.properties[field]?.title ?? field;
    const found = whitelabelErrors({ name, feUrl, deployConfiguration }, chosen, record ? known : null, { label, t });
    setErrors(found);
    if (found.length) return;
    // An emptied max version is sent empty, so the stored one goes (left out, it would stay).
    const payload: Record<string, unknown> = { name, feUrl, deployConfiguration, maxVersion: maxVersion.trim() === '' ? null : maxVersion, ...files };
    if (record) Object.assign(payload, { id: record.id }, versionOf(manifest, record));
    if (await write.run(() => panel.provider.call(action[1], payload))) onSaved();
  }

  return (
    <Dialog open={open} onClose={pending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="whitelabel-form-title">
      <DialogTitle id="whitelabel-form-title">{record ? t('Edit whitelabel') : t('Add whitelabel')}</DialogTitle>
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
        <StaleEditReload failure={write.failure} onReload={onReload} />
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label={t('Name')} value={name} onChange={(e) => setName(e.target.value)} disabled={Boolean(record) || pending} helperText={record ? t('The name names the asset files, so it stays') : t('Letters, digits, - and _')} />
          <TextField label={t('FE URL')} value={feUrl} onChange={(e) => setFeUrl(e.target.value)} disabled={pending} />
          {PICKERS.map(({ field, label, accept }) => {
            const asset = ASSETS.find((a) => a.field === field)!;
            const found = reachable?.[field];
            let status: string | undefined;
            if (record) status = reachable === undefined ? t('Checking the stored file…') : found ? t('Keeping the stored file') : asset.missing;
            return (
              <FilePicker
                key={field}
                buttonLabel={t(label)}
                accept={accept}
                chosen={files[field]?.name ?? null}
                keeping={Boolean(found)}
                status={status}
                error={Boolean(record) && reachable !== undefined && !found}
                storedHref={record && found ? `${host}${asset.url(storedName)}` : undefined}
                disabled={pending}
                inputTestId={`pick-${field}`}
                statusTestId={`file-${field}`}
                onPick={(file) => setFiles((f) => ({ ...f, [field]: file }))}
              />
            );
          })}
          <TextField
            label={t('Deploy configuration (JSON object)')}
            value={deployConfiguration}
            onChange={(e) => setDeploy(e.target.value)}
            disabled={pending}
            multiline
            minRows={3}
            slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
          />
          <VersionSelect label={t('Max version')} helperText={t('XX.YY.ZZ, chosen from the list or typed')} value={maxVersion} disabled={pending} onChange={(v) => setMaxVersion(v ?? '')} />
        </Stack>
      </DialogContent>
      <ModalActions pending={pending} okDisabled={!action} onCancel={onClose} onOk={() => void submit()} />
    </Dialog>
  );
}
