import PlayArrow from '@mui/icons-material/PlayArrow';
import Sync from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import useSWR from 'swr';
import { allowedAction } from '../../src/core/access/access';
import { usePanel } from '../../src/core/app/panel';
import { useWrite } from '../../src/core/app/write-status';
import { VERSION3 } from '../../kernel/rules/formats';
import { LookupSelect } from '../../src/mui/LookupSelect';
import type { ActionOverrideProps } from '../../src/registry/override-types';
import { t } from '../../src/core/i18n/i18n';

interface GitlabStatus {
  configured: boolean;
  missing: string[];
}

/**
 * The Pipelines toolbar (`actions.runPipeline.ui.override`): one whitelabel (a lookup of 1000, SPEC 7) for both
 * calls, Run pipeline (enabled with a whitelabel and a version X.X.X, SPEC 5) and Reload builds for wl (the build
 * manifest's call, needs a whitelabel). Without a configured GitLab it says which variables the server needs.
 */
export default function RunPipeline({ manifest, role, reload }: ActionOverrideProps) {
  const panel = usePanel();
  const run = allowedAction(manifest, 'runPipeline', role);
  const status = allowedAction(manifest, 'status', role);
  const build = panel.manifests.byEntity.get('build');
  const reloadForWl = build && allowedAction(build, 'reloadForWl', role);
  const { data: gitlab } = useSWR(status ? ['gitlab-status', status.path] : null, () => panel.provider.call<GitlabStatus>(status!, {}), {
    revalidateOnFocus: false,
  });
  const [whitelabelId, setWhitelabelId] = useState<number | undefined>();
  const [version, setVersion] = useState('');
  const runWrite = useWrite(run?.ui?.label ?? t('Run pipeline'));
  const reloadWrite = useWrite(reloadForWl?.ui?.label ?? t('Reload builds for wl'));
  const versionOk = VERSION3.test(version);
  const canRun = Boolean(run) && gitlab?.configured !== false;
  const running = runWrite.status === 'pending';
  const reloading = reloadWrite.status === 'pending';

  async function start() {
    if (await runWrite.run(() => panel.provider.call(run!, { version, whitelabelId }))) reload();
  }

  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }} data-testid="pipeline-toolbar">
      <LookupSelect entity="whitelabel" pageSize={1000} size="small" label={t('Whitelabel')} value={whitelabelId} onChange={(v) => setWhitelabelId(v as number | undefined)} sx={{ width: 220 }} />
      {canRun && (
        <>
          <TextField
            size="small"
            label={t('Version')}
            placeholder="1.20.34"
            value={version}
            onChange={(e) => setVersion(e.target.value.trim())}
            onKeyDown={(e) => e.key === 'Enter' && whitelabelId && versionOk && !running && void start()}
            error={version !== '' && !versionOk}
            slotProps={{ htmlInput: { 'aria-describedby': 'pipeline-version-format' } }}
            sx={{ width: 130 }}
          />
          <Button
            variant="contained"
            disabled={!whitelabelId || !versionOk || running}
            onClick={() => void start()}
            startIcon={running ? <CircularProgress size={16} color="inherit" /> : <PlayArrow />}
          >
            {run!.ui?.label ?? t('Run pipeline')}
          </Button>
        </>
      )}
      {reloadForWl && (
        <Button
          variant="outlined"
          disabled={!whitelabelId || reloading}
          onClick={() => void reloadWrite.run(() => panel.provider.call(reloadForWl, { whitelabelId }))}
          startIcon={reloading ? <CircularProgress size={16} color="inherit" /> : <Sync />}
        >
          {reloadForWl.ui?.label ?? t('Reload builds for wl')}
        </Button>
      )}
      {run && gitlab && !gitlab.configured && (
        <Alert severity="warning" sx={{ py: 0 }} data-testid="gitlab-not-configured">
          {t("GitLab is not configured: set {variables} in the server's environment. Until then pipelines cannot be run from here.", { variables: gitlab.missing.join(', ') })}
        </Alert>
      )}
      <span id="pipeline-version-format" hidden>
        {t('A version X.X.X, the tag or branch GitLab runs')}
      </span>
    </Stack>
  );
}
