import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { actionOfKind } from '../../src/core/access/access';
import { usePanel } from '../../src/core/app/panel';
import { useLookup } from '../../src/core/list/lookup';
import { useWrite } from '../../src/core/app/write-status';
import { actionLabel, versionOf } from '../../src/core/list/record-actions';
import { LookupSelect } from '../../src/mui/LookupSelect';
import type { FormOverrideProps } from '../../src/registry/override-types';
import { FormSection, TextListField } from '../shared/FormList';
import { cleanModelNames, experimentProblems, newExperiment, removeItem, type DeploymentBlock, type ExperimentDraft } from '../../kernel/rules/experiment';
import { ModalActions } from '../../src/mui/ModalActions';
import { StaleEditReload } from '../../src/mui/StaleEditReload';
import { t } from '../../src/core/i18n/i18n';

/** SPEC 7: the experiment form lists whitelabels and platforms as a page of 30 rows. */
const LOOKUP_PAGE = 30;

const blankBlock = (): DeploymentBlock => ({ count: null, groupName: '', customUrl: '', files: {} });

/** The draft of a stored experiment, lists never empty (the form always shows one item). */
function draftOf(record: Record<string, unknown> | null): ExperimentDraft {
  if (!record) return newExperiment();
  const blank = newExperiment();
  const list = <T,>(value: unknown, fallback: T[]): T[] => (Array.isArray(value) && value.length ? (value as T[]) : fallback);
  return {
    ...blank,
    ...(record as ExperimentDraft),
    platformIds: list(record.platformIds, blank.platformIds!),
    modelNames: list(record.modelNames, blank.modelNames!),
    versionsDeploymentSettings: list(record.versionsDeploymentSettings, blank.versionsDeploymentSettings!),
  };
}

/** The platform names by id, from the lookup's rows (shared with the platform selects through SWR's cache). */
function usePlatformNames(): Map<number, string> {
  const { rows } = useLookup('platform', LOOKUP_PAGE);
  return useMemo(() => new Map(rows.map((row) => [Number(row.id), String(row.name)])), [rows]);
}

const numberOrNull = (text: string) => (text === '' ? null : Number(text));


/**
 * The A/B experiment add/edit modal (SPEC 4 and 5). Its OK button follows `experimentProblems`, the same
 * function the server's `experiment.rules` check runs on add and edit (the server also refuses platform ids
 * that name no platform, which the 30-row lookup cannot tell).
 */
export default function ExperimentForm({ manifest, role, record, open, onClose, onSaved, onReload }: FormOverrideProps) {
  const panel = usePanel();
  const mode = record ? 'update' : 'create';
  const action = actionOfKind(manifest, mode, role);
  const write = useWrite(action ? actionLabel(action[1]) : t('Save'));
  const [draft, setDraft] = useState<ExperimentDraft>(() => draftOf(record));
  const platformNames = usePlatformNames();
  const pending = write.status === 'pending';

  const set = (patch: Partial<ExperimentDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const platformIds = draft.platformIds ?? [null];
  const modelNames = draft.modelNames ?? [''];
  const blocks = draft.versionsDeploymentSettings ?? [blankBlock()];
  const chosenPlatforms = platformIds.filter((id): id is number => typeof id === 'number');
  const setBlock = (index: number, patch: Partial<DeploymentBlock>) =>
    set({ versionsDeploymentSettings: blocks.map((b, i) => (i === index ? { ...b, ...patch } : b)) });

  const chosenNames = chosenPlatforms.map((id) => platformNames.get(id) ?? String(id));
  /** The record as it is sent: blanks dropped, names trimmed, file lists only for the chosen platforms. */
  const stored: ExperimentDraft = {
    ...draft,
    platformIds: platformIds[0] === null || platformIds[0] === undefined ? [] : chosenPlatforms,
    modelNames: cleanModelNames(modelNames),
    recordsCount: draft.recordsCount === '' || draft.recordsCount === null ? null : Number(draft.recordsCount),
    probability: draft.probability === '' || draft.probability === null ? null : Number(draft.probability),
    versionsDeploymentSettings: blocks.map((b) => ({
      count: b.count === null || b.count === undefined ? null : Number(b.count),
      groupName: b.groupName ?? '',
      customUrl: b.customUrl ?? '',
      files: Object.fromEntries(chosenNames.map((name) => [name, b.files?.[name] ?? []])),
    })),
  };
  const problems = experimentProblems(stored, { platformNames, creating: !record }, t);
  const sum = blocks.reduce((total, b) => total + (Number(b.count) || 0), 0);

  async function save() {
    if (!action || problems.length) return;
    const { isActive, isCollecting, isRandomSaveEnable, whitelabelId, platformIds: ids, modelNames: names, recordsCount, probability, versionsDeploymentSettings } = stored;
    const payload: Record<string, unknown> = {
      whitelabelId, platformIds: ids, modelNames: names, recordsCount, probability, versionsDeploymentSettings,
      isActive, isCollecting, isRandomSaveEnable,
    };
    if (record) Object.assign(payload, { id: record.id }, versionOf(manifest, record));
    if (await write.run(() => panel.provider.call(action[1], payload))) onSaved();
  }

  return (
    <Dialog open={open} onClose={pending ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby="experiment-form-title">
      <DialogTitle id="experiment-form-title">{record ? t('Edit experiment {id}', { id: String(record.id) }) : t('New Experiment')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={3}>
          {write.error && (
            <Alert severity="error" data-testid="form-error">
              {write.error}
            </Alert>
          )}
          <StaleEditReload failure={write.failure} onReload={onReload} />
          <LookupSelect
            id="experiment-whitelabel"
            entity="whitelabel"
            pageSize={LOOKUP_PAGE}
            label={t('Whitelabel')}
            required
            value={draft.whitelabelId ?? undefined}
            onChange={(value) => set({ whitelabelId: (value as number | undefined) ?? null })}
          />

          <FormSection
            title={t('Platforms')}
            action={
              <Button size="small" startIcon={<AddIcon />} onClick={() => set({ platformIds: [...platformIds, null] })}>
                {t('Add platform')}
              </Button>
            }
          >
            {platformIds.map((id, index) => (
              <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <LookupSelect
                  id={`experiment-platform-${index}`}
                  entity="platform"
                  pageSize={LOOKUP_PAGE}
                  label={t('Platform {n}', { n: index + 1 })}
                  required={index === 0}
                  value={id ?? undefined}
                  onChange={(value) => set({ platformIds: platformIds.map((p, i) => (i === index ? ((value as number | undefined) ?? null) : p)) })}
                  sx={{ flexGrow: 1 }}
                />
                <IconButton aria-label={t('Remove platform {n}', { n: index + 1 })} onClick={() => set({ platformIds: removeItem(platformIds, index, () => null) })}>
                  <RemoveIcon />
                </IconButton>
              </Stack>
            ))}
          </FormSection>

          <TextListField title={t('Model names')} itemLabel={t('Model name')} addLabel={t('Add model')} values={modelNames} onChange={(next) => set({ modelNames: next })} />

          <TextField
            label={t('Records count')}
            type="number"
            required
            value={draft.recordsCount ?? ''}
            onChange={(e) => set({ recordsCount: numberOrNull(e.target.value) })}
            slotProps={{ htmlInput: { min: 1 } }}
          />

          <FormSection
            title={t('Deployment: the counts add up to {sum} of the records count {total}', { sum, total: draft.recordsCount ?? '—' })}
            action={
              <Button size="small" startIcon={<AddIcon />} onClick={() => set({ versionsDeploymentSettings: [...blocks, blankBlock()] })}>
                {t('Add group')}
              </Button>
            }
          >
            {blocks.map((block, index) => (
              <Paper key={index} variant="outlined" sx={{ p: 2 }} data-testid={`deployment-block-${index}`}>
                <Stack spacing={1.5}>
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
                    <TextField
                      size="small"
                      label={t('Count')}
                      type="number"
                      required
                      value={block.count ?? ''}
                      onChange={(e) => setBlock(index, { count: numberOrNull(e.target.value) })}
                      sx={{ width: { sm: 120 } }}
                    />
                    <TextField size="small" label={t('Group name')} value={block.groupName ?? ''} onChange={(e) => setBlock(index, { groupName: e.target.value })} />
                    <TextField
                      size="small"
                      label={t('Custom URL')}
                      value={block.customUrl ?? ''}
                      onChange={(e) => setBlock(index, { customUrl: e.target.value })}
                      sx={{ flexGrow: 1 }}
                    />
                    <IconButton
                      aria-label={t('Remove group {n}', { n: index + 1 })}
                      onClick={() => set({ versionsDeploymentSettings: removeItem(blocks, index, blankBlock) })}
                    >
                      <RemoveIcon />
                    </IconButton>
                  </Stack>
                  {chosenPlatforms.map((id) => {
                    const name = platformNames.get(id) ?? String(id);
                    return (
                      <Autocomplete<string, true, false, true>
                        key={id}
                        multiple
                        freeSolo
                        autoSelect
                        size="small"
                        options={[]}
                        value={block.files?.[name] ?? []}
                        onChange={(_, next) => setBlock(index, { files: { ...block.files, [name]: next.map((f) => f.trim()).filter(Boolean) } })}
                        renderValue={(values, getItemProps) =>
                          values.map((value, i) => {
                            const { key, ...itemProps } = getItemProps({ index: i });
                            return <Chip key={key} size="small" label={value} {...itemProps} />;
                          })
                        }
                        renderInput={(params) => <TextField {...params} label={t('Files for {platform}', { platform: name })} placeholder={t('bundleA.js, Enter')} />}
                      />
                    );
                  })}
                </Stack>
              </Paper>
            ))}
          </FormSection>

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <FormControlLabel
              control={<Switch checked={Boolean(draft.isCollecting)} onChange={(e) => set({ isCollecting: e.target.checked })} />}
              label={t('Collecting users')}
            />
            <FormControlLabel
              control={<Switch checked={Boolean(draft.isRandomSaveEnable)} onChange={(e) => set({ isRandomSaveEnable: e.target.checked })} />}
              label={t('Random save')}
            />
            <TextField
              size="small"
              label={t('Probability')}
              type="number"
              disabled={!draft.isRandomSaveEnable}
              value={draft.probability ?? ''}
              onChange={(e) => set({ probability: e.target.value === '' ? '' : Number(e.target.value) })}
              slotProps={{ htmlInput: { min: 0, max: 1, step: 0.05 } }}
              helperText={t('0 to 1')}
              sx={{ width: 140 }}
            />
            <FormControlLabel control={<Switch checked={Boolean(draft.isActive)} disabled />} label={t('Active (switched from the list)')} />
          </Stack>

          {problems.length > 0 && (
            <Alert severity="info" data-testid="experiment-problems">
              <Typography variant="body2">{t('To save the experiment:')}</Typography>
              <ul style={{ margin: 0, paddingLeft: 20 }}>
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <ModalActions pending={pending} okDisabled={problems.length > 0 || !action} onCancel={onClose} onOk={() => void save()} />
    </Dialog>
  );
}
