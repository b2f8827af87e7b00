import UploadFile from '@mui/icons-material/UploadFileOutlined';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { t } from '../core/i18n/i18n';

export interface FilePickerProps {
  id?: string;
  buttonLabel: string;
  accept?: string;
  /** The chosen file's name, or null while none is chosen. */
  chosen: string | null;
  /** A stored file stays when none is chosen. */
  keeping: boolean;
  /** Where the stored file can be opened. */
  storedHref?: string;
  /** Said instead of the default status while no file is chosen (e.g. that the stored file is gone). */
  status?: ReactNode;
  /** The status is a problem: drawn in the error colour. */
  error?: boolean;
  disabled?: boolean;
  onPick: (file: File) => void;
  inputTestId?: string;
  statusTestId?: string;
}

/**
 * One file input as a button, the chosen name (or whether the stored file stays) and a link to the stored file.
 * @example <FilePicker buttonLabel="CSS" accept=".css" chosen={file?.name ?? null} keeping={false} onPick={setFile} />
 */
export function FilePicker({ id, buttonLabel, accept, chosen, keeping, storedHref, status, error, disabled, onPick, inputTestId, statusTestId }: FilePickerProps) {
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Button component="label" variant="outlined" size="small" startIcon={<UploadFile />} disabled={disabled} sx={{ flexShrink: 0, minWidth: 200, justifyContent: 'flex-start' }}>
        {buttonLabel}
        <input
          id={id}
          hidden
          type="file"
          accept={accept}
          data-testid={inputTestId}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) onPick(file);
          }}
        />
      </Button>
      <Typography variant="body2" noWrap data-testid={statusTestId} color={chosen ? 'text.primary' : error ? 'error' : 'text.secondary'}>
        {chosen ?? status ?? (keeping ? t('Keeping the stored file') : t('No file chosen'))}
      </Typography>
      {!chosen && storedHref && (
        <Link href={storedHref} target="_blank" rel="noreferrer" variant="body2" noWrap>
          {t('open')}
        </Link>
      )}
    </Stack>
  );
}
