import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { useLookup, type LookupOption } from '../core/list/lookup';

export interface LookupSelectProps {
  id?: string;
  entity: string | undefined;
  pageSize?: number;
  /** The field of the rows the select holds (default id): `name` holds names. */
  valueField?: string;
  label: string;
  /** One id, or a list of ids with `multiple`. */
  value: unknown;
  multiple?: boolean;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  size?: 'small' | 'medium';
  onChange: (value: unknown) => void;
  /** Called after onChange when a record is picked from the list (not while an id is typed). */
  onPick?: (value: unknown) => void;
  onEnter?: () => void;
  sx?: object;
}

const same = (a: unknown, b: unknown) => String(a) === String(b);

/**
 * A searchable select of another entity's records (`id — name`), holding ids. When the role may not list that
 * entity, it is a plain id input, so the field still works.
 */
export function LookupSelect({ id, entity, pageSize, valueField, label, value, multiple, required, disabled, error, helperText, size, onChange, onPick, onEnter, sx }: LookupSelectProps) {
  const { options, allowed, isLoading } = useLookup(entity, pageSize, valueField);
  const byName = Boolean(valueField && valueField !== 'id');
  if (!allowed) {
    return (
      <TextField
        id={id}
        size={size}
        label={label}
        type={multiple || byName ? 'text' : 'number'}
        value={Array.isArray(value) ? value.join(',') : (value ?? '')}
        required={required}
        disabled={disabled}
        error={error}
        helperText={helperText}
        onChange={(e) => {
          const text = e.target.value;
          if (multiple) onChange(text.split(',').map((s) => s.trim()).filter(Boolean).map(Number));
          else onChange(text === '' ? undefined : byName ? text : Number(text));
        }}
        onKeyDown={(e) => e.key === 'Enter' && onEnter?.()}
        sx={sx}
      />
    );
  }
  const byId = (v: unknown): LookupOption => options.find((o) => same(o.id, v)) ?? { id: v as number, label: String(v) };
  const selected = multiple ? (Array.isArray(value) ? value.map(byId) : []) : value === undefined || value === null || value === '' ? null : byId(value);
  return (
    <Autocomplete<LookupOption, boolean>
      id={id}
      multiple={multiple}
      size={size}
      options={options}
      loading={isLoading}
      value={selected as LookupOption}
      disabled={disabled}
      isOptionEqualToValue={(a, b) => same(a.id, b.id)}
      getOptionLabel={(o) => o.label}
      onChange={(_, next) => {
        const picked = multiple ? (next as LookupOption[]).map((o) => o.id) : ((next as LookupOption | null)?.id ?? undefined);
        onChange(picked);
        onPick?.(picked);
      }}
      renderInput={(params) => <TextField {...params} label={label} required={required} error={error} helperText={helperText} />}
      sx={sx}
    />
  );
}
