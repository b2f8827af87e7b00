import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import PlayArrow from '@mui/icons-material/PlayArrowOutlined';
import { useState, type ReactNode } from 'react';
import { actionOfKind } from '../../core/access/access';
import { usePanel } from '../../core/app/panel';
import { useWrite } from '../../core/app/write-status';
import { filterParam, hasFilter, rowMatchesFilters } from '../../core/list/list-query';
import { useListContext } from '../../core/list/list-context';
import { actionLabel, bulkDeleteText, deletedRecordLine, keyParams, recordName, refusal, versionOf } from '../../core/list/record-actions';
import { deleteWithUndo } from '../../core/list/undoable-delete';
import { countNoun, fieldLabel } from '../../../kernel/manifest/fields';
import type { ActionDecl, FieldSchema } from '../../../kernel/manifest/types';
import { LookupSelect } from '../LookupSelect';
import { useConfirm } from '../ConfirmDialog';
import { LazyTooltip } from '../LazyTooltip';
import { ModalActions } from '../ModalActions';
import { formatNumber, t } from '../../core/i18n/i18n';

type Row = Record<string, unknown>;

/** The spec's question before every delete (SPEC 4); the dialog's second line says what goes. */
const GENERIC_DELETE_QUESTION = 'Delete this item?';

/** Where a call's button stands: `ui.place`, else the toolbar for destroyAll/destroyByFilter, else nowhere. */
export function placeOf(action: ActionDecl): 'toolbar' | 'row' | 'none' {
  if (action.ui?.place) return action.ui.place;
  return action.kind === 'destroyAll' || action.kind === 'destroyByFilter' ? 'toolbar' : 'none';
}

interface InputSchema {
  properties?: Record<string, FieldSchema & { 'x-lookup'?: string }>;
  required?: string[];
}

function filled(value: unknown) {
  return value !== undefined && value !== null && String(value).trim() !== '' && !Number.isNaN(value);
}

/** The small modal of a custom call with an `inputSchema`: one input per property, OK disabled until the required are filled. */
function InputDialog({ title, schema, pending, onCancel, onSubmit }: { title: string; schema: InputSchema; pending: boolean; onCancel: () => void; onSubmit: (values: Row) => void }) {
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const [values, setValues] = useState<Row>({});
  const ready = [...required].every((f) => filled(values[f]));
  const set = (field: string, value: unknown) => setValues((v) => ({ ...v, [field]: value }));
  return (
    <Dialog open onClose={pending ? undefined : onCancel} fullWidth maxWidth="xs">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {Object.entries(props).map(([field, p]) => {
            const label = p.title ?? field;
            const numeric = p.type === 'integer' || p.type === 'number';
            if (p['x-lookup']) {
              return <LookupSelect key={field} entity={p['x-lookup']} label={label} value={values[field]} required={required.has(field)} onChange={(v) => set(field, v)} />;
            }
            return (
              <TextField
                key={field}
                label={label}
                required={required.has(field)}
                select={Boolean(p.enum)}
                type={numeric ? 'number' : 'text'}
                value={values[field] ?? ''}
                onChange={(e) => set(field, numeric && e.target.value !== '' ? Number(e.target.value) : e.target.value)}
              >
                {(p.enum ?? []).map((v) => (
                  <MenuItem key={String(v)} value={String(v)}>
                    {String(v)}
                  </MenuItem>
                ))}
              </TextField>
            );
          })}
        </Stack>
      </DialogContent>
      <ModalActions pending={pending} okDisabled={!ready} onCancel={onCancel} onOk={() => onSubmit(values)} />
    </Dialog>
  );
}

/**
 * A declared call offered as a button (toolbar, or a row with `row`): confirmation, input modal, pending state,
 * the write notices of SPEC 4, and a reload of the list after it.
 */
export function ActionButton({ name, action, row, icon }: { name: string; action: ActionDecl; row?: Row; icon?: ReactNode }) {
  const panel = usePanel();
  const { manifest, role, callParams, draftFilters, applyFilters, reload } = useListContext();
  const label = actionLabel(action, name);
  const write = useWrite(label);
  const { confirm, alert, dialog } = useConfirm();
  const [asking, setAsking] = useState(false);
  const schema = action.inputSchema as InputSchema | undefined;
  const needsInput = action.kind === 'custom' && !row && Object.keys(schema?.properties ?? {}).length > 0;
  const pending = write.status === 'pending';
  const refused = row ? refusal(row, action) : null;

  async function run(input: Row = {}) {
    const params: Row = { ...callParams, ...input };
    if (row) Object.assign(params, keyParams(row, action));
    let detail: string | undefined;
    let selected: Row | undefined;
    if (action.kind === 'destroyByFilter') {
      // What the filter box shows is what gets deleted: applied first, so the list behind the question shows it too.
      const filters = Object.fromEntries(Object.entries(draftFilters).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, v.trim()]));
      if (!hasFilter(filters)) return alert(action.ui?.requireFilter ?? t('Fill some filter input'));
      applyFilters(filters);
      Object.assign(params, filters);
      selected = params;
      detail = await matchingText(filters);
    }
    // The spec's question stays as written ('Delete this item?'); the line under it names the record that goes.
    if (action.kind === 'destroy' && row) detail = deletedRecordLine(manifest, row);
    const question = action.kind === 'destroy' && row && !action.ui?.confirm ? t(GENERIC_DELETE_QUESTION) : action.ui?.confirm;
    if (question && !(await confirm(question, detail))) return;
    const bulk = action.kind === 'destroyAll' || action.kind === 'destroyByFilter';
    const summary = bulk ? (answer: unknown) => bulkDeleteText(manifest, answer, (entity) => panel.manifests.byEntity.get(entity)) : undefined;
    if (action.kind === 'destroy' || bulk) {
      // The record's version goes with a delete: the server refuses it (409) when someone changed the record since.
      if (row) Object.assign(params, versionOf(manifest, row));
      const key = row ? JSON.stringify(keyParams(row, action)) : null;
      // A delete by filter takes the rows its filters select; the others stay on screen while its notice waits.
      const filters = manifest.list?.filters ?? [];
      deleteWithUndo({
        entity: manifest.entity,
        takes: (other) =>
          key !== null ? JSON.stringify(keyParams(other, action)) === key : !selected || rowMatchesFilters(filters, selected, other),
        title: t('{label} request status', { label }),
        text: row ? t('Deleted "{name}"', { name: recordName(manifest, row) }) : t('Deleting the records'),
        commit: () => write.run(() => panel.provider.call(action, params), summary).then(() => reload()),
        sendOnLeave: () => void panel.provider.call(action, params, { keepalive: true }).catch(() => undefined),
      });
      return;
    }
    if (await write.run(() => panel.provider.call(action, params), summary)) {
      setAsking(false);
      reload();
    }
  }

  /** "3 builds match Whitelabel = acme", from a count of the list with those filters. */
  async function matchingText(filters: Row): Promise<string | undefined> {
    const list = actionOfKind(manifest, 'list', role);
    if (!list) return undefined;
    const labelOf = (param: string) => {
      const filter = manifest.list?.filters?.find((f) => filterParam(f) === param);
      return filter?.label ?? fieldLabel(manifest, filter?.field ?? param);
    };
    const shown = Object.entries(filters).map(([param, value]) => `${labelOf(param)} = ${String(value)}`).join(', ');
    try {
      const { count, countCapped } = await panel.provider.list(list[1], { ...callParams, ...filters, page: 1, pageSize: 1 });
      const params = { what: countNoun(manifest, count), count: formatNumber(count), shown };
      if (countCapped) return t('More than {what} match {shown}.', params);
      return count === 1 ? t('{what} matches {shown}.', params) : t('{what} match {shown}.', params);
    } catch {
      return t('Filter: {shown}.', { shown });
    }
  }

  const onClick = () => (needsInput ? setAsking(true) : void run());
  const danger = action.kind === 'destroyAll' || action.kind === 'destroyByFilter' || action.kind === 'destroy';
  return (
    <>
      {row ? (
        <LazyTooltip title={refused ?? label}>
          <span>
            <IconButton size="small" aria-label={label} color={danger ? 'error' : 'primary'} disabled={pending || Boolean(refused)} onClick={onClick}>
              {icon ?? <PlayArrow fontSize="small" />}
            </IconButton>
          </span>
        </LazyTooltip>
      ) : (
        <Button
          variant="outlined"
          color={danger ? 'error' : 'primary'}
          disabled={pending}
          onClick={onClick}
          startIcon={pending ? <CircularProgress size={16} color="inherit" /> : icon}
        >
          {label}
        </Button>
      )}
      {asking && schema && <InputDialog title={label} schema={schema} pending={pending} onCancel={() => setAsking(false)} onSubmit={(v) => void run(v)} />}
      {dialog}
    </>
  );
}
