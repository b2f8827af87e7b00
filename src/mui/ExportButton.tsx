// "Export CSV" on a list screen: the current view's every row (filters and sort, not only the page), from the
// server's streamed export. The token travels only in the Authorization header, as on every call, so the file
// is fetched with it and saved from a Blob rather than through a link a token would have to ride in.
import Download from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useRef, useState } from 'react';
import { usePanel } from '../core/app/panel';
import { notify } from '../core/app/notices';
import { writeErrorText } from '../core/http/http-error';
import { formatNumber, useT } from '../core/i18n/i18n';
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
  // The rows received so far (the header line not counted), while the file streams in.
  const [rows, setRows] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const t = useT();
  if (!manifest.list?.columns?.length) return null;
  const run = async () => {
    setBusy(true);
    setRows(0);
    const controller = (abort.current = new AbortController());
    try {
      const { page: _page, pageSize: _size, ...view } = params;
      const onProgress = ({ lines }: { lines: number }) => setRows(Math.max(0, lines - 1));
      const { blob, filename } = await panel.provider.download(exportPathOf(listAction.path), view, { signal: controller.signal, onProgress });
      save(blob, filename ?? `${manifest.entity}.csv`);
    } catch (error) {
      if (controller.signal.aborted) notify({ severity: 'info', title: t('Export CSV'), text: t('Export cancelled') });
      else notify({ severity: 'error', title: t('Export CSV'), text: writeErrorText(error) });
    } finally {
      abort.current = null;
      setBusy(false);
    }
  };
  if (busy) {
    return (
      <Button variant="outlined" color="warning" startIcon={<CircularProgress size={16} />} onClick={() => abort.current?.abort()} data-testid="export-cancel">
        <span role="status">{t('{count} rows received', { count: formatNumber(rows) })}</span>
        &nbsp;· {t('Cancel')}
      </Button>
    );
  }
  return (
    <Button variant="outlined" startIcon={<Download />} onClick={() => void run()}>
      {t('Export CSV')}
    </Button>
  );
}
