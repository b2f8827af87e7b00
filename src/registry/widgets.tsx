import FormControl from '@mui/material/FormControl';
import FormLabel from '@mui/material/FormLabel';
import { Theme } from '@rjsf/mui';
import type { Widget, WidgetProps } from '@rjsf/utils';
import { installed } from './installed';
import type { ChosenFiles } from '../core/form/files';
import { FilePicker } from '../mui/FilePicker';
import { LookupSelect } from '../mui/LookupSelect';
import { VersionSelect } from '../mui/VersionSelect';
import { createRegistry } from './registry';
import { t } from '../core/i18n/i18n';

/** `widget: "versionSelect"`: a version from the list of `ui:options.lookup` (default `version`) or typed. */
export function VersionSelectWidget({ id, value, required, disabled, readonly, label, onChange, onBlur, onFocus, rawErrors, options, schema }: WidgetProps) {
  return (
    <VersionSelect
      id={id}
      entity={typeof options.lookup === 'string' ? options.lookup : undefined}
      label={label || schema.title || ''}
      value={typeof value === 'string' ? value : ''}
      required={required}
      disabled={disabled || readonly}
      error={(rawErrors ?? []).length > 0}
      onChange={onChange}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
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

const BaseSelectWidget = Theme.widgets!.SelectWidget!;

/**
 * RJSF's MUI select, without the empty first option for a required field (that option means "no value", which a
 * required field cannot have). The widget offers it while the schema has no default, so a required field's copy
 * of the schema gets its first option as default (one of its options: RJSF logs an error for any other); the
 * value itself still comes from the form, so nothing is chosen until the user chooses.
 */
export function RequiredSelectWidget(props: WidgetProps) {
  const first = props.options.enumOptions?.[0];
  const schema = props.required && props.schema.default === undefined && first ? { ...props.schema, default: first.value } : props.schema;
  return <BaseSelectWidget {...props} schema={schema} />;
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
  return (
    <FormControl error={errors.length > 0} required={required} fullWidth>
      <FormLabel htmlFor={id} sx={{ mb: 0.5 }}>
        {label || schema.title}
      </FormLabel>
      <FilePicker
        id={id}
        buttonLabel={t('Choose file')}
        accept={typeof options.accept === 'string' ? options.accept : undefined}
        chosen={typeof value === 'string' && value ? value : null}
        keeping={stored !== undefined && stored !== null && !required}
        storedHref={isUrl(stored) ? stored : undefined}
        disabled={disabled || readonly}
        statusTestId={`file-${name}`}
        onPick={(file) => {
          ctx.files.set(name, file);
          onChange(file.name);
        }}
      />
    </FormControl>
  );
}

/** Form widgets of `form.ui.<field>.widget`: RJSF built-in names or components; the installed overrides win. */
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
  installed.widgets,
);
