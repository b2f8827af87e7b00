import OpenInNew from '@mui/icons-material/OpenInNew';
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { usePanel } from '../../src/core/app/panel';
import { HttpError } from '../../src/core/http/data-provider';
import { useLookup } from '../../src/core/list/lookup';
import { JsonTree } from '../../src/mui/cells/JsonTree';
import type { ScreenOverrideProps } from '../../src/registry/override-types';
import { EMPTY_FORM, MATCHED_BY, ipProblem, lookupParams, lookupUrl, type TestRequestForm } from './test-request';
import { t } from '../../src/core/i18n/i18n';

interface LookupAnswer {
  matchedBy: string;
  build: { name: string; version: string | null; resolution: string | null; urls: string[]; customUrl?: string | null; forceLocalBuild: boolean };
  experiment: { id: number; group: number | null; groupName: string | null; isActive: boolean } | null;
  whitelabel: { name: string; feUrl: string | null; imageHD: string | null; imageFHD: string | null; cssConfig: string | null } | null;
  platform: { name: string } | null;
  localisation: unknown;
  config: unknown;
  techSupportUrl: string | null;
  ip: string;
}

type Outcome = { url: string } & ({ state: 'pending' } | { state: 'done'; answer: LookupAnswer } | { state: 'failed'; error: HttpError });

/** Names of a lookup entity's records, offered while typing (the lookup matches by name). */
function NameField({ entity, label, value, onChange }: { entity: string; label: string; value: string; onChange: (v: string) => void }) {
  const { rows } = useLookup(entity, 1000);
  const names = rows.map((r) => String(r.name ?? '')).filter(Boolean);
  return (
    <Autocomplete
      freeSolo
      options={names}
      inputValue={value}
      onInputChange={(_, next) => onChange(next)}
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ py: 0.5, alignItems: 'baseline' }}>
      <Typography variant="body2" color="text.secondary" sx={{ width: 150, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ minWidth: 0, wordBreak: 'break-all', fontSize: 14 }}>{children}</Box>
    </Stack>
  );
}

const Url = ({ href }: { href: string | null | undefined }) =>
  href ? (
    <Link href={href} target="_blank" rel="noopener noreferrer">
      {href}
    </Link>
  ) : (
    <Typography component="span" variant="body2" color="text.disabled">
      none
    </Typography>
  );

/** The answer as staff read it: the rule that chose, the build and its links, the rest of what the app gets. */
function Answer({ answer }: { answer: LookupAnswer }) {
  const { build, experiment, whitelabel } = answer;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} role="region" aria-label={t('Lookup answer')}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1.5, flexWrap: 'wrap' }} useFlexGap>
        <Chip color="success" label={`matchedBy: ${answer.matchedBy}`} />
        <Typography variant="body2">{MATCHED_BY[answer.matchedBy]?.() ?? answer.matchedBy}</Typography>
      </Stack>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
            {t('Build')}
          </Typography>
          <Row label={t('Name')}>{build.name}</Row>
          <Row label={t('Version')}>{build.version ?? '—'}</Row>
          <Row label={t('Resolution')}>{build.resolution ?? '—'}</Row>
          <Row label={t('Force local build')}>{build.forceLocalBuild ? t('yes') : t('no')}</Row>
          {build.customUrl !== undefined && (
            <Row label={t('Custom URL')}>
              <Url href={build.customUrl} />
            </Row>
          )}
          <Row label={t('URLs')}>
            <Stack component="ul" sx={{ m: 0, pl: 2 }}>
              {build.urls.map((url) => (
                <li key={url}>
                  <Url href={url} />
                </li>
              ))}
            </Stack>
          </Row>
          <Row label={t('A/B experiment')}>
            {experiment ? (
              <>
                <Link component={RouterLink} to={`/abtesting/${experiment.id}`}>
                  {t('Experiment {id}', { id: experiment.id })}
                </Link>
                {`, ${t('group {group}', { group: experiment.group ?? '—' })}${experiment.groupName ? ` (${experiment.groupName})` : ''}, ${experiment.isActive ? t('active') : t('collecting, not active yet')}`}
              </>
            ) : (
              t('not in a collection')
            )}
          </Row>
          <Row label={t('Caller IP')}>{answer.ip || '—'}</Row>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
            {answer.platform ? t('Whitelabel {name} on {platform}', { name: whitelabel?.name ?? '', platform: answer.platform.name }) : t('Whitelabel {name}', { name: whitelabel?.name ?? '' })}
          </Typography>
          {(
            [
              [t('FE URL'), whitelabel?.feUrl],
              [t('Logo 1280x720'), whitelabel?.imageHD],
              [t('Logo 1920x1080'), whitelabel?.imageFHD],
              ['CSS', whitelabel?.cssConfig],
              [t('Tech support'), answer.techSupportUrl],
            ] as const
          ).map(([label, href]) => (
            <Row key={label} label={label}>
              <Url href={href} />
            </Row>
          ))}
          <Row label={t('Localisation')}>{answer.localisation ? <JsonTree value={answer.localisation} openDepth={0} /> : t('none active')}</Row>
          <Row label={t('WL config')}>{answer.config ? <JsonTree value={answer.config} openDepth={0} /> : t('none active')}</Row>
        </Grid>
      </Grid>
    </Paper>
  );
}

/**
 * /testRequest (SPEC 2): the lookup a device makes, from five optional fields. Send opens GET /v1/combination/get
 * in a new tab, as the spec says, and shows the same answer formatted below the form.
 */
export default function TestRequestScreen({ manifest }: ScreenOverrideProps) {
  const panel = usePanel();
  const lookup = panel.manifests.byEntity.get('combination')?.actions.lookup;
  const [form, setForm] = useState<TestRequestForm>(EMPTY_FORM);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const set = (field: keyof TestRequestForm) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const ipError = ipProblem(form.ipAddress);

  if (!lookup) return <Alert severity="error">{t('No manifest declares combination.actions.lookup.')}</Alert>;

  const send = () => {
    const url = lookupUrl(panel.config.backendUrl || window.location.origin, lookup.path, form);
    // Opened first, inside the click, so the browser does not take it for a pop-up.
    window.open(url, '_blank', 'noopener');
    setOutcome({ url, state: 'pending' });
    panel.provider
      .call<LookupAnswer>(lookup, lookupParams(form))
      .then((answer) => setOutcome({ url, state: 'done', answer }))
      .catch((error: HttpError) => setOutcome({ url, state: 'failed', error }));
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {manifest.title}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!ipError) send();
          }}
        >
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <TextField fullWidth label={t('Installation GUID')} value={form.appInstallId} onChange={(e) => set('appInstallId')(e.target.value)} />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <TextField
                fullWidth
                label={t('IP address')}
                value={form.ipAddress}
                onChange={(e) => set('ipAddress')(e.target.value)}
                error={Boolean(ipError)}
                helperText={ipError ?? t('Empty: the address this browser calls from')}
              />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <NameField entity="whitelabel" label={t('Whitelabel name')} value={form.whitelabel} onChange={set('whitelabel')} />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <NameField entity="platform" label={t('Platform name')} value={form.platform} onChange={set('platform')} />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <TextField fullWidth label={t('Resolution')} value={form.resolution} onChange={(e) => set('resolution')(e.target.value)} placeholder="1080p" />
            </Grid>
          </Grid>
          <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
            <Button type="submit" variant="contained" disabled={Boolean(ipError)} startIcon={outcome?.state === 'pending' ? <CircularProgress size={16} color="inherit" /> : <Send />}>
              {lookup.ui?.label ?? t('Send')}
            </Button>
            <Button variant="text" onClick={() => (setForm(EMPTY_FORM), setOutcome(null))}>
              {t('Clear')}
            </Button>
            <Typography variant="body2" color="text.secondary">
              {t('Every field is optional. The request is a real device lookup: a GUID sent here can join an A/B collection that is collecting.')}
            </Typography>
          </Stack>
        </Box>
      </Paper>
      {outcome && (
        <Stack spacing={1.5}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
            <OpenInNew fontSize="small" color="action" />
            <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
              {t('Opened in a new tab:')}
            </Typography>
            <Link href={outcome.url} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ wordBreak: 'break-all' }} aria-label={t('Lookup URL')}>
              {outcome.url}
            </Link>
          </Stack>
          {outcome.state === 'failed' && (
            <Alert severity={outcome.error.status === 404 ? 'warning' : 'error'} role="alert">
              {outcome.error.status ? `${outcome.error.status}: ` : ''}
              {outcome.error.message}
            </Alert>
          )}
          {outcome.state === 'done' && <Answer answer={outcome.answer} />}
        </Stack>
      )}
    </Stack>
  );
}
