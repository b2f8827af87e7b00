import ClearIcon from '@mui/icons-material/Clear';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { hasFilter, filterParam } from '../core/list/list-query';
import { useListContext } from '../core/list/list-context';
import { fieldSchema } from '../../kernel/manifest/fields';
import type { FieldSchema, Manifest } from '../../kernel/manifest/types';
import { filterKinds } from '../registry/filters';
import { t } from '../core/i18n/i18n';

/** A true/false field filters by yes or no (the server reads 'true' and 'false'). */
const booleanOptions = () => [
  { value: 'true', label: t('yes') },
  { value: 'false', label: t('no') },
];
const isBoolean = (schema: FieldSchema | undefined) => schema?.type === 'boolean' || (Array.isArray(schema?.type) && schema.type.includes('boolean'));

export interface FilterBarProps {
  manifest: Manifest;
  file: string;
  draft: Record<string, string>;
  applied: Record<string, string>;
  onDraft: (next: Record<string, string>) => void;
  /** Enter (or a select choice) applies the draft and reloads the list. */
  onApply: (next?: Record<string, string>) => void;
  onClear: () => void;
}

/** The filter box of `list.filters`; Clear is enabled only while some filter is filled. */
export function FilterBar({ manifest, file, draft, applied, onDraft, onApply, onClear }: FilterBarProps) {
  // A filter the route already fills (the collection id of /abtesting/:collectionId) is not offered again.
  const { callParams } = useListContext();
  const filters = (manifest.list?.filters ?? []).filter((f) => !(filterParam(f) in callParams));
  if (filters.length === 0) return null;
  return (
    <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }} role="search">
      {filters.map((f, i) => {
        const Input = filterKinds.get(f.widget ?? 'text', { file, path: `/list/filters/${i}/widget` });
        const param = filterParam(f);
        const schema = fieldSchema(manifest, f.field);
        const options = schema?.enum
          ? schema.enum.map((v) => ({ value: String(v), label: String(v) }))
          : isBoolean(schema)
            ? booleanOptions()
            : undefined;
        return (
          <Input
            key={param}
            label={f.label ?? schema?.title ?? f.field}
            value={draft[param] ?? ''}
            options={options}
            lookup={f.lookup}
            lookupValue={f.lookupValue}
            onChange={(value) => onDraft({ ...draft, [param]: value })}
            onSubmit={(value) => onApply(value === undefined ? undefined : { ...draft, [param]: value })}
          />
        );
      })}
      <Button variant="outlined" startIcon={<ClearIcon />} disabled={!hasFilter(draft) && !hasFilter(applied)} onClick={onClear}>
        {t('Clear')}
      </Button>
    </Stack>
  );
}
