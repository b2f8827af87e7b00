// @mui/material/Autocomplete, loaded later: the data grid's filter panel, and lookup fields, which draw their text
// field at once, holding the chosen records' labels, and take input once the module is here (moments later: it is
// fetched once the first rows are drawn). Only the default export: its importers take no other.
import type Autocomplete from '@mui/material/Autocomplete';
import type { AutocompleteProps, AutocompleteRenderInputParams } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import { useId } from 'react';
import { later } from './later';

type Props = AutocompleteProps<unknown, boolean, boolean, boolean>;

const nothing = () => undefined;

/** The text field the autocomplete will draw, read-only, showing the labels of its value. */
function Waiting({ id: idProp, value, multiple, getOptionLabel, renderInput, disabled, size, fullWidth, sx }: Props) {
  const ownId = useId();
  const id = idProp ?? ownId;
  // MUI's own default: an option's `label`, or the option itself.
  const label = (option: unknown) =>
    option === null || option === undefined ? '' : getOptionLabel ? getOptionLabel(option) : String((option as { label?: unknown }).label ?? option);
  const shown = multiple ? (Array.isArray(value) ? value : []).map(label).join(', ') : label(value);
  const params: AutocompleteRenderInputParams = {
    id,
    disabled: Boolean(disabled),
    fullWidth: fullWidth ?? true,
    size: size === 'small' ? 'small' : undefined,
    slotProps: {
      inputLabel: { id: `${id}-label`, htmlFor: id } as AutocompleteRenderInputParams['slotProps']['inputLabel'],
      input: { ref: nothing, className: '', startAdornment: undefined, endAdornment: undefined, onMouseDown: nothing },
      htmlInput: { id, value: shown, readOnly: true, disabled, role: 'combobox', 'aria-expanded': false } as AutocompleteRenderInputParams['slotProps']['htmlInput'],
    },
  };
  return <Box sx={sx}>{renderInput(params)}</Box>;
}

export default later<typeof Autocomplete>(() => import('@mui/material/Autocomplete'), { fallback: (props) => <Waiting {...(props as Props)} /> });
