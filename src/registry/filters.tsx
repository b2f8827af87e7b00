import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ComponentType, KeyboardEvent } from 'react';
import { installed as overrides } from './installed';
import { LookupSelect } from '../mui/LookupSelect';
import type { FilterInputProps } from './override-types';
import { createRegistry } from './registry';

function onEnter(submit: (value?: string) => void) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      submit();
    }
  };
}

export function TextFilter({ label, value, onChange, onSubmit }: FilterInputProps) {
  return (
    <TextField size="small" label={label} value={value} onChange={(e) => onChange(e.target.value)} onKeyDown={onEnter(onSubmit)} />
  );
}

export function NumberFilter({ label, value, onChange, onSubmit }: FilterInputProps) {
  return (
    <TextField
      size="small"
      type="number"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onEnter(onSubmit)}
      sx={{ width: 140 }}
    />
  );
}

/** A select over the field's enum; choosing a value reloads at once (there is no Enter in a select). */
export function SelectFilter({ label, value, onChange, onSubmit, options = [] }: FilterInputProps) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => {
        onChange(e.target.value);
        onSubmit(e.target.value);
      }}
      sx={{ minWidth: 160 }}
    >
      <MenuItem value="">
        <em>any</em>
      </MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A select of another entity's records (`lookup`, holding `lookupValue` or the id); choosing one reloads at once. */
export function LookupFilter({ label, value, onChange, onSubmit, lookup, lookupValue }: FilterInputProps) {
  return (
    <LookupSelect
      entity={lookup}
      valueField={lookupValue}
      size="small"
      label={label}
      value={value === '' ? undefined : value}
      onChange={(next) => onChange(next === undefined || next === null || Number.isNaN(next) ? '' : String(next))}
      onPick={(next) => onSubmit(next === undefined || next === null ? '' : String(next))}
      onEnter={() => onSubmit()}
      sx={{ minWidth: 220 }}
    />
  );
}

/** Filter input kinds of `list.filters[].widget` (default `text`). */
export const filterKinds = createRegistry<ComponentType<FilterInputProps>>(
  'filter kind',
  { text: TextFilter, number: NumberFilter, select: SelectFilter, lookup: LookupFilter },
  overrides.filters,
);
