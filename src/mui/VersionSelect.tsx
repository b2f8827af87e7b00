import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import useSWR from 'swr';
import { usePanel } from '../core/app/panel';

export interface VersionSelectProps {
  id?: string;
  label: string;
  value: string;
  /** The entity whose list gives the versions (default `version`). */
  entity?: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: string;
  onChange: (value: string | undefined) => void;
  onBlur?: () => void;
  onFocus?: () => void;
}

/**
 * A version chosen from the list action of the `version` entity (`data.rows`, strings) or typed; the record
 * schema's `semver` format validates it.
 */
export function VersionSelect({ id, label, value, entity = 'version', required, disabled, error, helperText, onChange, onBlur, onFocus }: VersionSelectProps) {
  const panel = usePanel();
  const action = panel.manifests.byEntity.get(entity)?.actions.list;
  const { data, isLoading } = useSWR(action ? ['versions', action.path] : null, () => panel.provider.call<{ rows: unknown[] }>(action!, {}));
  const versions = (data?.rows ?? []).filter((v): v is string => typeof v === 'string');
  return (
    <Autocomplete
      freeSolo
      id={id}
      options={versions}
      loading={isLoading}
      value={value}
      disabled={disabled}
      onChange={(_, next) => onChange(next || undefined)}
      onInputChange={(_, next, reason) => reason === 'input' && onChange(next || undefined)}
      renderInput={(params) => <TextField {...params} label={label} required={required} error={error} helperText={helperText} onBlur={onBlur} onFocus={onFocus} />}
    />
  );
}
