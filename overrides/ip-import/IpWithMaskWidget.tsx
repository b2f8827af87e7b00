import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';
import { isIpv4Cidr, withMask } from '../../kernel/rules/ip';

/**
 * The tester-IP address input: the record's `ipv4cidr` format gates OK, and a valid address without a mask
 * gets /32 when the field is left (SPEC 5: "a missing mask is replaced by /32 on submit"), so what is sent is
 * what the user saw. The help text and the format error are drawn by the form under the field.
 */
export function IpWithMaskWidget({ id, value, required, disabled, readonly, label, onChange, onBlur, onFocus, rawErrors, schema }: WidgetProps) {
  const text = typeof value === 'string' ? value : '';
  const invalid = text !== '' && !isIpv4Cidr(text);
  const errors = rawErrors ?? [];
  return (
    <TextField
      id={id}
      fullWidth
      label={label || schema.title}
      required={required}
      disabled={disabled || readonly}
      value={text}
      error={invalid || errors.length > 0}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value.trim())}
      onFocus={() => onFocus(id, value)}
      onBlur={() => {
        const masked = isIpv4Cidr(text) ? withMask(text) : text;
        if (masked !== text) onChange(masked);
        onBlur(id, masked);
      }}
    />
  );
}
