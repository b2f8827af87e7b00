import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { Widget, WidgetProps } from '@rjsf/utils';
import useSWR from 'swr';
import { widgetOverrides } from '../../overrides/widgets';
import { usePanel } from '../core/app/panel';
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
          helperText={errors.length ? errors.join(', ') : (options.help as string | undefined)}
          onBlur={() => onBlur(id, value)}
          onFocus={() => onFocus(id, value)}
        />
      )}
    />
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
  },
  widgetOverrides,
);
