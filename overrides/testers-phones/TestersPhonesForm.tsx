import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { useRef, useState } from 'react';
import { actionOfKind } from '../../src/core/access/access';
import { usePanel } from '../../src/core/app/panel';
import { useWrite } from '../../src/core/app/write-status';
import { actionLabel, versionOf } from '../../src/core/list/record-actions';
import { LookupSelect } from '../../src/mui/LookupSelect';
import type { FormOverrideProps } from '../../src/registry/override-types';
import { TextListField } from '../shared/FormList';
import { ModalActions } from '../../src/mui/ModalActions';
import { StaleEditReload } from '../../src/mui/StaleEditReload';
import { t } from '../../src/core/i18n/i18n';

type Row = Record<string, unknown>;

/**
 * The testers-phones modal (SPEC 5): whitelabel, a list of phones, active. Choosing a whitelabel that already
 * has a record loads it, so the save edits that record instead of colliding with it.
 */
export default function TestersPhonesForm({ manifest, role, record, open, onClose, onSaved, onReload }: FormOverrideProps) {
  const panel = usePanel();
  const [current, setCurrent] = useState<Row | null>(record);
  const [whitelabelId, setWhitelabelId] = useState<number | undefined>((record?.whitelabelId as number | undefined) ?? undefined);
  const [phones, setPhones] = useState<string[]>(Array.isArray(record?.phones) && record.phones.length ? (record.phones as string[]) : ['']);
  const [isActive, setIsActive] = useState<boolean>(record ? Boolean(record.isActive) : true);
  const [incomplete, setIncomplete] = useState(false);
  const latest = useRef<number | undefined>(whitelabelId);
  const action = actionOfKind(manifest, current ? 'update' : 'create', role);
  const list = actionOfKind(manifest, 'list', role)?.[1];
  const write = useWrite(action ? actionLabel(action[1]) : t('Save'));
  const pending = write.status === 'pending';

  async function chooseWhitelabel(value: number | undefined) {
    setWhitelabelId(value);
    latest.current = value;
    if (value === undefined || Number.isNaN(value) || !list) return;
    const found = await panel.provider.list<Row>(list, { whitelabelId: value, pageSize: 1 }).catch(() => null);
    const existing = found?.rows[0];
    // A slower answer for an id the user already typed past must not overwrite the form.
    if (!existing || latest.current !== value) return;
    setCurrent(existing);
    setPhones(Array.isArray(existing.phones) && existing.phones.length ? (existing.phones as string[]) : ['']);
    setIsActive(Boolean(existing.isActive));
  }

  const cleaned = phones.map((p) => p.trim());
  const complete = Boolean(whitelabelId) && cleaned.length > 0 && cleaned.every((p) => p !== '');

  async function save() {
    setIncomplete(!complete);
    if (!complete) return;
    if (!action) return;
    const payload: Row = { whitelabelId, phones: cleaned, isActive };
    if (current) Object.assign(payload, { id: current.id }, versionOf(manifest, current));
    if (await write.run(() => panel.provider.call(action[1], payload))) onSaved();
  }

  return (
    <Dialog open={open} onClose={pending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="testers-phones-title">
      <DialogTitle id="testers-phones-title">{current ? t('Edit testers phones {id}', { id: String(current.id) }) : t('Add testers phones')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {incomplete && !complete && (
            <Alert severity="warning" data-testid="fill-all-fields">
              {t('Fill all fields')}
            </Alert>
          )}
          {write.error && (
            <Alert severity="error" data-testid="form-error">
              {write.error}
            </Alert>
          )}
          <StaleEditReload failure={write.failure} onReload={onReload} />
          <LookupSelect id="testers-phones-whitelabel" entity="whitelabel" label={t('Whitelabel id')} required value={whitelabelId} onChange={(v) => void chooseWhitelabel(v as number | undefined)} />
          <TextListField title={t('Phones')} itemLabel={t('Phone')} addLabel={t('Add phone')} values={phones} onChange={setPhones} />
          <FormControlLabel control={<Checkbox checked={isActive} onChange={(e) => setIsActive(e.target.checked)} />} label={t('Active')} />
        </Stack>
      </DialogContent>
      <ModalActions pending={pending} okDisabled={!action} onCancel={onClose} onOk={() => void save()} />
    </Dialog>
  );
}
