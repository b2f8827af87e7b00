import UploadFile from '@mui/icons-material/UploadFile';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Widget, WidgetProps } from '@rjsf/utils';
import useSWR from 'swr';
import { widgetOverrides } from '../../overrides/widgets';
import { usePanel } from '../core/app/panel';
import type { ChosenFiles } from '../core/form/files';
import { LookupSelect } from '../mui/LookupSelect';
import { createRegistry } from './registry';

/**
 * A version chosen from GET versions (`data.rows`, strings) or typed; the record schema's `semver` format
 * validates it. The versions come from the list action of the `version` entity (or `ui:options.lookup`).
 */
export function VersionSelectWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, label, onChange, onBlur, onFocus, rawErrors, options, schema } = props;
  const panel = usePanel();
  const entity = typeof options.lookup === 'string' ? options.lookup : 'version';
  const action = panel.manifests.byEntity.get(entity)?.actions.list;
  const { data, isLoading } = useSWR(action ? ['versions', action.path] : null, () =>
    panel.provider.call<{ rows: unknown[] }>(action!, {}),
  );
  const versions = (data?.rows ?? []).filter((v): v is string => typeof v === 'string');
  const errors = rawErrors ?? [];
  return (
    <Autocomplete
      freeSolo
      id={id}
      options={versions}
      loading={isLoading}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      onChange={(_, next) => onChange(next || undefined)}
      onInputChange={(_, next, reason) => reason === 'input' && onChange(next || undefined)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label || schema.title}
          required={required}
          error={errors.length > 0}
          onBlur={() => onBlur(id, value)}
          onFocus={() => onFocus(id, value)}
        />
      )}
    />
  );
}

/** `form.ui.<f>: {widget: 'lookup', lookup: 'whitelabel', lookupPageSize: 30}`: ids of another entity's records. */
export function LookupWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, label, onChange, rawErrors, options, schema } = props;
  const errors = rawErrors ?? [];
  return (
    <LookupSelect
      id={id}
      entity={typeof options.lookup === 'string' ? options.lookup : undefined}
      pageSize={typeof options.lookupPageSize === 'number' ? options.lookupPageSize : undefined}
      label={label || schema.title || ''}
      value={value}
      multiple={schema.type === 'array'}
      required={required}
      disabled={disabled || readonly}
      error={errors.length > 0}
      onChange={(next) => onChange(next)}
    />
  );
}

/** What the generic form gives its widgets through RJSF's formContext. */
export interface EntityFormContext {
  files: ChosenFiles;
  /** The record being edited, or null on add. */
  record: Record<string, unknown> | null;
}

const isUrl = (v: unknown): v is string => typeof v === 'string' && /^(https?:\/\/|\/)/.test(v);

/** An upload field (`storage.files`): a file picker; the stored file stays on edit unless another is chosen. */
export function FileWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, label, onChange, rawErrors, options, schema, registry, name } = props;
  const ctx = registry.formContext as EntityFormContext;
  const stored = ctx.record?.[name];
  const errors = rawErrors ?? [];
  const chosen = typeof value === 'string' && value ? value : null;
  return (
    <FormControl error={errors.length > 0} required={required} fullWidth>
      <FormLabel htmlFor={id} sx={{ mb: 0.5 }}>
        {label || schema.title}
      </FormLabel>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Button component="label" variant="outlined" size="small" startIcon={<UploadFile />} disabled={disabled || readonly} sx={{ flexShrink: 0 }}>
          Choose file
          <input
            id={id}
            hidden
            type="file"
            accept={typeof options.accept === 'string' ? options.accept : undefined}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              ctx.files.set(name, file);
              onChange(file.name);
            }}
          />
        </Button>
        <Typography variant="body2" noWrap data-testid={`file-${name}`} color={chosen ? 'text.primary' : 'text.secondary'}>
          {chosen ?? (stored !== undefined && stored !== null && !required ? 'Keeping the stored file' : 'No file chosen')}
        </Typography>
        {!chosen && isUrl(stored) && (
          <Link href={stored} target="_blank" rel="noreferrer" variant="body2" noWrap>
            open
          </Link>
        )}
      </Stack>
    </FormControl>
  );
}

/** Form widgets of `form.ui.<field>.widget`: RJSF built-in names or components; overrides/widgets.ts wins. */
export const widgets = createRegistry<Widget | string>(
  'widget',
  {
    text: 'text',
    textarea: 'textarea',
    password: 'password',
    select: 'select',
    checkbox: 'checkbox',
    number: 'updown',
    versionSelect: VersionSelectWidget,
    lookup: LookupWidget,
    file: FileWidget,
  },
  widgetOverrides,
);
