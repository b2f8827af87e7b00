import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { allowedAction } from '../../src/core/access/access';
import { usePanel } from '../../src/core/app/panel';
import { useWrite } from '../../src/core/app/write-status';
import { HttpError } from '../../src/core/http/http-error';
import type { ActionOverrideProps } from '../../src/registry/override-types';
import { IMPORT_REASON_TEXT, type ImportProblem } from '../../kernel/rules/ip';
import type { FromWorker, ToWorker } from './worker-messages';
import { ModalActions } from '../../src/mui/ModalActions';
import { formatNumber, t } from '../../src/core/i18n/i18n';

const VENDORS = ['samsung', 'lg'];
/** Rows of the preview and of the bad-line list: enough to check the file, cheap to draw for any size. */
const SHOWN = 200;

/** A duplicate the server refused the import for (server/actions/testers-ip.ts ImportDuplicate). */
interface Duplicate {
  line: number;
  ip: string;
  first?: number;
}

/** The duplicates a refusal names, in the panel's language: 'line 5: 10.0.0.1/32 is already in the list'. */
function duplicatesOf(failure: unknown): string[] {
  const body = failure instanceof HttpError ? (failure.body as { duplicates?: Duplicate[] } | undefined) : undefined;
  return (body?.duplicates ?? []).map((d) =>
    d.first === undefined ? t('line {n}: {ip} is already in the list', { n: d.line, ip: d.ip }) : t('line {n}: {ip} repeats line {first}', { n: d.line, ip: d.ip, first: d.first }),
  );
}

/** What the page keeps of a parsed file: counts and the first lines; the addresses stay in the worker. */
interface Parsed {
  file: string;
  count: number;
  first: string[];
  problems: ImportProblem[];
  problemCount: number;
}

/**
 * One file's worker (parse.worker.ts): it reads and parses the file, then on OK writes the request body. One
 * question at a time; `close` ends it (a new file, or the modal closed).
 */
class ImportWorker {
  private readonly worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });

  private ask(message: ToWorker): Promise<FromWorker> {
    return new Promise((resolve, reject) => {
      this.worker.onmessage = (event: MessageEvent<FromWorker>) => {
        if (event.data.type === 'error') reject(new Error(event.data.message));
        else resolve(event.data);
      };
      this.worker.onerror = (event) => reject(new Error(event.message));
      this.worker.postMessage(message);
    });
  }

  async parse(file: File): Promise<Parsed> {
    const answer = await this.ask({ type: 'parse', file, shown: SHOWN });
    if (answer.type !== 'parsed') throw new Error(`unexpected answer ${answer.type}`);
    return { file: file.name, count: answer.count, first: answer.first, problems: answer.problems, problemCount: answer.problemCount };
  }

  /** The addArray body for all the file's addresses with this vendor, as JSON bytes. */
  async body(vendor: string): Promise<Blob> {
    const answer = await this.ask({ type: 'body', vendor });
    if (answer.type !== 'body') throw new Error(`unexpected answer ${answer.type}`);
    return answer.body;
  }

  close() {
    this.worker.terminate();
  }
}

/**
 * The tester-IP screen's "Import from file" (SPEC 5 "IP import"): vendor first, then a text file whose lines
 * become addresses (ranges and wildcards expanded, /32 added), a preview, and one addArray call for all.
 * Lines that are no address are listed with their line numbers and skipped; OK imports the others.
 */
export function IpImportButton({ manifest, role, reload }: ActionOverrideProps) {
  const panel = usePanel();
  const action = allowedAction(manifest, 'addArray', role);
  const [open, setOpen] = useState(false);
  const [vendor, setVendor] = useState('');
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const worker = useRef<ImportWorker | null>(null);
  const abort = useRef<AbortController | null>(null);
  const write = useWrite(action?.ui?.label ?? t('Import from file'));
  const pending = write.status === 'pending';
  useEffect(() => {
    if (!open) {
      worker.current?.close();
      worker.current = null;
      setVendor('');
      setParsed(null);
      setReadError(null);
      write.reset();
    }
    // write.reset is stable; resetting belongs to closing only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  useEffect(() => () => worker.current?.close(), []);
  if (!action) return null;

  async function choose(file: File | undefined) {
    if (!file) return;
    setReading(true);
    setReadError(null);
    // The file shown so far stays (and its worker, which holds its addresses) until the new one is read.
    const previous = worker.current;
    const current = new ImportWorker();
    worker.current = current;
    try {
      const result = await current.parse(file);
      if (worker.current !== current) return; // the modal was closed meanwhile
      previous?.close();
      setParsed(result);
    } catch (error) {
      current.close();
      if (worker.current === current) worker.current = previous;
      setReadError(t('The file could not be read: {message}', { message: (error as Error).message }));
    } finally {
      setReading(false);
      if (input.current) input.current.value = '';
    }
  }

  async function submit() {
    const current = worker.current;
    if (!parsed || !action || !current) return;
    // The worker writes the body (20 MB for 450,000 addresses) and the page sends it as it is. Cancel aborts the
    // request; the server then rolls the import back, so a cancelled import stores nothing.
    const controller = (abort.current = new AbortController());
    const sent = await write.run(async () => panel.provider.call(action, await current.body(vendor), { signal: controller.signal }));
    abort.current = null;
    if (sent) {
      setOpen(false);
      reload();
    } else if (controller.signal.aborted) write.reset();
  }

  const count = parsed?.count ?? 0;
  const problems = parsed?.problems ?? [];
  const problemCount = parsed?.problemCount ?? 0;
  const ready = vendor !== '' && count > 0 && !reading;
  return (
    <>
      <Button variant="outlined" startIcon={<UploadFile />} onClick={() => setOpen(true)}>
        {t('Import from file')}
      </Button>
      <Dialog open={open} onClose={pending ? undefined : () => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="ip-import-title">
        <DialogTitle id="ip-import-title">{t('Import from file')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            {write.error && duplicatesOf(write.failure).length === 0 && <Alert severity="error">{write.error}</Alert>}
            {duplicatesOf(write.failure).length > 0 && (
              <Alert severity="error" data-testid="ip-import-duplicates">
                {t('Duplicate addresses, nothing was stored:')}
                <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                  {duplicatesOf(write.failure).map((text) => (
                    <li key={text}>{text}</li>
                  ))}
                </Box>
              </Alert>
            )}
            {pending && (
              <Box data-testid="ip-import-progress">
                <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                  <Typography role="status" sx={{ flex: 1 }}>
                    {t('Importing {n} addresses…', { n: formatNumber(count) })}
                  </Typography>
                  <Button color="warning" variant="outlined" onClick={() => abort.current?.abort()}>
                    {t('Cancel import')}
                  </Button>
                </Stack>
                <LinearProgress sx={{ mt: 1 }} aria-label={t('Importing {n} addresses…', { n: formatNumber(count) })} />
              </Box>
            )}
            <TextField select label={t('Vendor')} required value={vendor} onChange={(e) => setVendor(e.target.value)} disabled={pending}>
              {VENDORS.map((v) => (
                <MenuItem key={v} value={v}>
                  {v}
                </MenuItem>
              ))}
            </TextField>
            <Box>
              <Button component="label" variant="outlined" disabled={vendor === '' || reading || pending} startIcon={reading ? <CircularProgress size={16} /> : <UploadFile />}>
                {parsed ? t('Choose another file') : t('Choose a file')}
                <input ref={input} hidden type="file" accept=".txt,.csv,text/plain" aria-label={t('IP list file')} onChange={(e) => void choose(e.target.files?.[0])} />
              </Button>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {vendor === ''
                  ? t('Choose the vendor first.')
                  : t('One address per line: a.b.c.d[/mask], a range start~end, or a.b.c.* for .1 to .255. Blank lines are skipped.')}
              </Typography>
            </Box>
            {readError && <Alert severity="error">{readError}</Alert>}
            {problemCount > 0 && (
              <Alert severity="warning" data-testid="ip-import-problems">
                {problemCount === 1 ? t('{n} line is not an address and will be skipped', { n: problemCount }) : t('{n} lines are not an address and will be skipped', { n: problemCount })}
                {count > 0 ? t('; OK imports the other lines') : ''}:
                <Box component="ul" sx={{ m: 0, pl: 2.5, maxHeight: 160, overflow: 'auto' }}>
                  {problems.slice(0, SHOWN).map((p) => (
                    <li key={p.line}>
                      {t('line {n}:', { n: p.line })} <code>{p.text}</code> ({t(IMPORT_REASON_TEXT[p.reason])})
                    </li>
                  ))}
                </Box>
              </Alert>
            )}
            {parsed && (
              <Box data-testid="ip-import-preview">
                <Typography variant="subtitle2">
                  {count === 1 ? t('{n} address to add from {file}', { n: formatNumber(count), file: parsed.file }) : t('{n} addresses to add from {file}', { n: formatNumber(count), file: parsed.file })}
                </Typography>
                {count > 0 && (
                  <Box component="pre" sx={{ m: 0, mt: 1, p: 1, maxHeight: 220, overflow: 'auto', bgcolor: 'action.hover', borderRadius: 1, fontSize: 13 }}>
                    {parsed.first.join('\n')}
                    {count > SHOWN && `\n${t('… and {n} more', { n: formatNumber(count - SHOWN) })}`}
                  </Box>
                )}
              </Box>
            )}
          </Stack>
        </DialogContent>
        <ModalActions pending={pending} okDisabled={!ready} onCancel={() => setOpen(false)} onOk={() => void submit()} />
      </Dialog>
    </>
  );
}
