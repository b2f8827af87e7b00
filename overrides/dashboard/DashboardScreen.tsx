import Sync from '@mui/icons-material/Sync';
import TaskAlt from '@mui/icons-material/TaskAlt';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { allowedAction } from '../../src/core/access/access';
import { usePanel } from '../../src/core/app/panel';
import { useWrite } from '../../src/core/app/write-status';
import { live } from '../../src/core/live/live-store';
import { session } from '../../src/core/session/session';
import { useStore } from '../../src/core/store';
import { LookupSelect } from '../../src/mui/LookupSelect';
import type { ScreenOverrideProps } from '../../src/registry/override-types';
import { buildCheckText, consoleText, errorText, list, wlStatusOf } from './live-items';
import { t } from '../../src/core/i18n/i18n';

/** The console's scroll, kept across visits of the screen: where the reader left it, or stuck to the bottom. */
const consoleScroll = { top: 0, atBottom: true };

function Console({ lines }: { lines: unknown[] }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.scrollTop = consoleScroll.atBottom ? el.scrollHeight : consoleScroll.top;
  }, [lines]);
  return (
    <Box
      ref={box}
      role="log"
      aria-label={t('Console')}
      onScroll={(e) => {
        const el = e.currentTarget;
        consoleScroll.top = el.scrollTop;
        consoleScroll.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
      }}
      sx={{ height: 280, overflowY: 'auto', bgcolor: '#0f172a', color: '#d1fae5', borderRadius: 1, p: 1.5, fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12.5, lineHeight: 1.6 }}
    >
      {lines.length === 0 ? (
        <Box sx={{ color: 'grey.500' }}>{t('The console is quiet. Output of build jobs appears here.')}</Box>
      ) : (
        lines.map((line, i) => (
          <Box key={i} sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {consoleText(line)}
          </Box>
        ))
      )}
    </Box>
  );
}

function Panel({ title, empty, children, count }: { title: string; empty: string; count: number; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} aria-label={title} role="region">
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {count === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {empty}
        </Typography>
      ) : (
        <Stack spacing={1}>{children}</Stack>
      )}
    </Paper>
  );
}

/** One build call as a button, disabled while its request is pending (SPEC 2 Dashboard). */
function CallButton({ label, disabled, run }: { label: string; disabled?: boolean; run: () => Promise<unknown> }) {
  const write = useWrite(label);
  const pending = write.status === 'pending';
  return (
    <Button variant="contained" disabled={disabled || pending} onClick={() => void write.run(run)} startIcon={pending ? <CircularProgress size={16} color="inherit" /> : <Sync />}>
      {label}
    </Button>
  );
}

/**
 * `/` for admins and developers: the build calls of the build manifest, the live console and the three live
 * panels fed by the socket's dataQueue (update statuses per whitelabel, build checks, last errors).
 */
export default function DashboardScreen({ manifest }: ScreenOverrideProps) {
  const panel = usePanel();
  const role = useStore(session).user?.role;
  const state = useStore(live);
  const [whitelabelId, setWhitelabelId] = useState<number | undefined>();
  const build = panel.manifests.byEntity.get('build');
  const reload = build && allowedAction(build, 'reload', role);
  const update = build && allowedAction(build, 'update', role);
  const reloadForWl = build && allowedAction(build, 'reloadForWl', role);
  const wlStatuses = list(state.wlStatuses);
  const checks = list(state.buildsStatuses);
  const errorGroups = state.buildsErrors;
  const errorCount = errorGroups.reduce((n, group) => n + group.errors.length, 0);

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {manifest.title}
        </Typography>
        <Chip size="small" color={state.connected ? 'success' : 'default'} variant="outlined" label={state.connected ? t('Live') : t('Offline')} />
      </Stack>

      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          {reload && <CallButton label={reload.ui?.label ?? t('Reload builds')} run={() => panel.provider.call(reload, {})} />}
          {update && <CallButton label={update.ui?.label ?? t('Update builds statuses')} run={() => panel.provider.call(update, {})} />}
          {reloadForWl && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', ml: { md: 'auto' } }}>
              <LookupSelect entity="whitelabel" pageSize={1000} size="small" label={t('Whitelabel ID')} value={whitelabelId} onChange={(v) => setWhitelabelId(v as number | undefined)} sx={{ minWidth: 220 }} />
              <CallButton
                label={reloadForWl.ui?.label ?? t('Reload builds for wl')}
                disabled={!whitelabelId}
                run={() => panel.provider.call(reloadForWl, { whitelabelId })}
              />
            </Stack>
          )}
        </Stack>
      </Paper>

      <Console lines={state.console} />

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <Panel title={t('Update statuses')} empty={t('No update info')} count={wlStatuses.length}>
            {wlStatuses.map((item, i) => {
              const status = wlStatusOf(item);
              return (
                <Tooltip
                  key={i}
                  placement="bottom-start"
                  title={(status.messages.length ? status.messages : [status.last]).map((message, j) => (
                    <Box key={j} data-testid="wl-status-message">
                      {message}
                    </Box>
                  ))}
                >
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }} data-testid={`wl-status-${status.whitelabel}`}>
                    <Chip size="small" label={status.whitelabel} />
                    <Typography variant="body2" noWrap>
                      {status.last}
                    </Typography>
                  </Stack>
                </Tooltip>
              );
            })}
          </Panel>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <Panel title={t('Build check statuses')} empty={t('No active check processes')} count={checks.length}>
            {checks.map((item, i) => {
              const check = buildCheckText(item);
              return (
                <Box key={i}>
                  <Typography variant="body2">{check.text}</Typography>
                  {check.progress !== undefined && <LinearProgress variant="determinate" value={check.progress} sx={{ mt: 0.5 }} />}
                </Box>
              );
            })}
          </Panel>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <Panel title={t('Last build processing errors')} empty={t('No last errors')} count={errorCount}>
            {errorGroups.map((group) => (
              <Box key={group.whitelabel} data-testid={`wl-errors-${group.whitelabel}`} role="group" aria-label={t('Errors of {whitelabel}', { whitelabel: group.whitelabel })}>
                <Chip size="small" label={group.whitelabel} sx={{ mb: 0.5 }} />
                {group.errors.map((item, i) => (
                  <Typography key={i} variant="body2" color="error.main" sx={{ wordBreak: 'break-word' }}>
                    {errorText(item)}
                  </Typography>
                ))}
              </Box>
            ))}
          </Panel>
        </Grid>
      </Grid>
      {!reload && !update && !reloadForWl && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
          <TaskAlt fontSize="small" />
          <Typography variant="body2">{t('Your role watches the live data only.')}</Typography>
        </Stack>
      )}
    </Stack>
  );
}
