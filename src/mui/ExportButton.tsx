// "Export CSV" on a list screen: the current view's every row (filters and sort, not only the page), from the
// server's streamed export. The token travels only in the Authorization header, as on every call, so the file
// is fetched with it and saved from a Blob rather than through a link a token would have to ride in.
import Download from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useState } from 'react';
import { usePanel } from '../core/app/panel';
import { notify } from '../core/app/notices';
import { writeErrorText } from '../core/http/http-error';
import { useT } from '../core/i18n/i18n';
import type { ActionDecl, Manifest } from '../../kernel/manifest/types';

/** The export's path beside its list call (server/crud/export.ts). */
export const exportPathOf = (listPath: string) => `${listPath}/export.csv`;

function save(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** @example <ExportButton manifest={m} listAction={action} params={{...callParams, ...toApiParams(query)}} /> */
export function ExportButton({ manifest, listAction, params }: { manifest: Manifest; listAction: ActionDecl; params: Record<string, unknown> }) {
  const panel = usePanel();
  const [busy, setBusy] = useState(false);
  const t = useT();
  if (!manifest.list?.columns?.length) return null;
  const run = async () => {
    setBusy(true);
    try {
      const { page: _page, pageSize: _size, ...view } = params;
      const { blob, filename } = await panel.provider.download(exportPathOf(listAction.path), view);
      save(blob, filename ?? `${manifest.entity}.csv`);
    } catch (error) {
      notify({ severity: 'error', title: t('Export CSV'), text: writeErrorText(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" startIcon={busy ? <CircularProgress size={16} /> : <Download />} disabled={busy} onClick={() => void run()}>
      {t('Export CSV')}
    </Button>
  );
}
