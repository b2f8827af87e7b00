import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { canCall } from '../../src/core/access/can-call';
import { usePanel } from '../../src/core/app/panel';
import { useWrite } from '../../src/core/app/write-status';
import type { ActionOverrideProps } from '../../src/registry/override-types';
import { IPV4 } from '../../kernel/rules/ip';
import { loadOfficeIp, officeIp, officeIpForcedFor, useOfficeIp } from './office-ip';
import { t } from '../../src/core/i18n/i18n';


/** The office-IP box of the Combinations toolbar (`screen.toolbar: ["officeIpBox"]`); hidden from testers (see officeIpForcedFor). */
export default function OfficeIpBox({ role }: ActionOverrideProps) {
  const panel = usePanel();
  const { ip, loaded } = useOfficeIp(panel);
  const [draft, setDraft] = useState(ip ?? '');
  const write = useWrite(t('Office IP update'));
  useEffect(() => setDraft(ip ?? ''), [ip]);
  const ipManifest = panel.manifests.byEntity.get('officeIp');
  const update = ipManifest?.actions.update;
  // Hidden from the roles whose combinations get the office IP forced (the tester).
  if (officeIpForcedFor(panel.manifests.byEntity.get('combination'), role) || !ipManifest || !canCall(ipManifest, 'update', role)) return null;
  const pending = write.status === 'pending';

  async function save() {
    if (await write.run(() => panel.provider.call(update!, { ip: draft }))) officeIp.set({ ip: draft, loaded: true });
    // SPEC 4: after a failed update the IP is reloaded, and the box shows it again instead of the refused text.
    else {
      await loadOfficeIp(panel);
      setDraft(officeIp.get().ip ?? '');
    }
  }

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="office-ip-box">
      <TextField
        size="small"
        label={t('Office IP')}
        value={draft}
        placeholder={loaded ? t('not set') : t('loading…')}
        onChange={(e) => setDraft(e.target.value.trim())}
        error={draft !== '' && !IPV4.test(draft)}
        sx={{ width: 170 }}
      />
      <Button variant="outlined" size="small" disabled={pending || !IPV4.test(draft) || draft === ip} onClick={() => void save()} startIcon={pending ? <CircularProgress size={14} /> : undefined}>
        {t('Update office IP')}
      </Button>
    </Stack>
  );
}
