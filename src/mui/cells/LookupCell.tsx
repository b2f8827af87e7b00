import { useLookup } from '../../core/list/lookup';
import { useListContext } from '../../core/list/list-context';
import type { CellProps } from '../../registry/override-types';
import { OverflowText } from './OverflowText';

/** `cell: "lookup"`: ids shown by the names of the records `form.ui.<field>.lookup` points to ("1 — webOS, 2 — Tizen"). */
export function LookupCell({ value, column }: CellProps) {
  const { manifest } = useListContext();
  const hint = manifest.form?.ui?.[column.field];
  const { options } = useLookup(hint?.lookup, hint?.lookupPageSize);
  const ids = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  const text = ids.map((id) => options.find((o) => String(o.id) === String(id))?.label ?? String(id)).join(', ');
  return <OverflowText text={text} />;
}
