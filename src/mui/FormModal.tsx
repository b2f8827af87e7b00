import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type CoreForm from '@rjsf/core';
import Form from '@rjsf/mui';
import type { ErrorSchema, RJSFSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';
import { useCallback, useMemo, useRef, useState } from 'react';
import { actionOfKind } from '../core/access/access';
import { recordNoun } from '../../kernel/manifest/fields';
import { usePanel } from '../core/app/panel';
import { useWrite } from '../core/app/write-status';
import { acceptOf, fileRuleOf, withFiles, type ChosenFiles } from '../core/form/files';
import { errorField, formErrorText, withServerErrors } from '../core/form/form-errors';
import { serverFieldErrors } from '../core/http/http-error';
import { formFields, formJsonSchema, initialValues, requiredFilled } from '../core/form/form-schema';
import { formValidator } from '../core/form/validator';
import type { FieldSchema } from '../../kernel/manifest/types';
import { actionLabel, createPayload, updatePayload } from '../core/list/record-actions';
import type { FormOverrideProps } from '../registry/override-types';
import { RequiredSelectWidget, widgets, type EntityFormContext } from '../registry/widgets';
import { ModalActions } from './ModalActions';
import { StaleEditReload } from './StaleEditReload';
import { RecordChangedNotice } from './RecordChangedNotice';
import { t, useLang } from '../core/i18n/i18n';
import type { UploadProgress as Progress } from '../core/http/data-provider';
import { createStore } from '../core/store';
import { UploadProgress } from './UploadProgress';
import { rjsfTranslator } from './rjsf-strings';

type Values = Record<string, unknown>;

/** Every select the generic form draws for a required field offers its options only, without an empty first one. */
const FORM_WIDGETS = { SelectWidget: RequiredSelectWidget };

/**
 * The errors of fields that hold a value (a missing value is the required gate's business), shown at the field
 * as the user types and keeping OK disabled: a bad IP never reaches the server. Worded as the server words them.
 */
function fieldProblems(schema: RJSFSchema, values: Values, labels: Record<string, FieldSchema>): ErrorSchema<Values> {
  const out: Record<string, { __errors: string[] }> = {};
  for (const error of formValidator(schema).validateFormData(values, schema).errors) {
    if (error.name === 'required') continue;
    const field = errorField(error);
    const value = values[field];
    if (!field || value === undefined || value === null || value === '') continue;
    (out[field] ??= { __errors: [] }).__errors.push(formErrorText(error, labels));
  }
  return out as ErrorSchema<Values>;
}

/**
 * The one add/edit modal of every entity (RJSF, MUI theme): fields, widgets and locks from the manifest, OK
 * disabled until the required fields hold a value, and the modal stays open when the write fails.
 */
export default function FormModal({ manifest, role, record, open, onClose, onSaved, onReload }: FormOverrideProps) {
  const panel = usePanel();
  const lang = useLang();
  const file = panel.manifests.fileOf(manifest.entity);
  const mode = record ? 'edit' : 'create';
  const action = actionOfKind(manifest, mode === 'edit' ? 'update' : 'create', role);
  const fields = useMemo(() => formFields(manifest, mode, role, action?.[1]), [manifest, mode, role, action]);
  const schema = useMemo(() => formJsonSchema(manifest, fields) as RJSFSchema, [manifest, fields]);
  const uiSchema = useMemo<UiSchema>(() => {
    const ui: UiSchema = { 'ui:order': fields.map((f) => f.name), 'ui:submitButtonOptions': { norender: true } };
    for (const f of fields) {
      const entry: Record<string, unknown> = {};
      if (f.widget) entry['ui:widget'] = widgets.get(f.widget, { file, path: `/form/ui/${f.name}/widget` });
      if (f.disabled) entry['ui:disabled'] = true;
      // The form draws the help under every field; widgets draw only their errors, so nothing shows twice.
      if (f.help) entry['ui:help'] = f.help;
      const hint = manifest.form?.ui?.[f.name];
      const rule = fileRuleOf(manifest, f.name);
      if (f.widget) entry['ui:options'] = { lookup: hint?.lookup, lookupPageSize: hint?.lookupPageSize, accept: rule && acceptOf(rule) };
      // List items are labelled by the items' own title and position ("URL 2"), not RJSF's "Custom build URLs-2".
      const itemTitle = f.schema.type === 'array' && !f.widget ? (f.schema.items?.title ?? t('Item')) : undefined;
      if (itemTitle) entry.items = (_item: unknown, index: number) => ({ 'ui:title': `${itemTitle} ${index + 1}` });
      ui[f.name] = entry;
    }
    return ui;
  }, [fields, file, manifest]);
  const [values, setValues] = useState<Values>(() => initialValues(fields, record));
  // The fields as the form shows them (its titles) with the manifest's descriptions, for the error sentences.
  const labels = useMemo(() => {
    const shown = (schema.properties ?? {}) as Record<string, FieldSchema>;
    return Object.fromEntries(fields.map((f) => [f.name, { ...f.schema, title: shown[f.name]?.title ?? f.name }]));
  }, [schema, fields]);
  const problems = useMemo(() => fieldProblems(schema, values, labels), [schema, values, labels]);
  const transformErrors = useCallback(
    (errors: RJSFValidationError[]) => errors.map((e) => ({ ...e, message: formErrorText(e, labels), stack: formErrorText(e, labels) })),
    [labels],
  );
  const write = useWrite(action ? actionLabel(action[1]) : t('Save'));
  const formRef = useRef<CoreForm<Values>>(null);
  const files = useRef<ChosenFiles>(new Map());
  const formContext = useMemo<EntityFormContext>(() => ({ files: files.current, record }), [record]);
  const pending = write.status === 'pending';
  const title = mode === 'create' && action?.[1].ui?.label ? action[1].ui.label : mode === 'edit' ? t('Edit {noun}', { noun: recordNoun(manifest) }) : t('Add {noun}', { noun: recordNoun(manifest) });

  // The values of the last save, so the fields the server refused stay marked until they are changed.
  const [sent, setSent] = useState<Values | null>(null);
  const shownErrors = useMemo(
    () => withServerErrors(problems, serverFieldErrors(write.failure), values, sent, fields.map((f) => f.name)),
    [problems, write.failure, values, sent, fields],
  );

  // A multipart write (the form's files) reports its upload here and may be cancelled until all is sent.
  const upload = useMemo(() => createStore<Progress | null>(null), []);
  const abort = useRef<AbortController | null>(null);

  async function save(formData: Values) {
    if (!action) return;
    setSent(formData);
    const fields = record ? updatePayload(manifest, action[1], record, formData) : createPayload(manifest, formData);
    const payload = withFiles(manifest, fields, files.current);
    const multipart = action[1].input === 'multipart';
    const controller = (abort.current = new AbortController());
    const options = multipart ? { signal: controller.signal, onUploadProgress: (p: Progress) => upload.set(p) } : undefined;
    // A cancelled upload resolves false with the form as it was: the values and chosen files stay for another OK.
    const saved = await write.run(() => panel.provider.call(action[1], payload, options));
    abort.current = null;
    upload.set(null);
    if (saved) onSaved();
  }

  return (
    <Dialog open={open} onClose={pending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="entity-form-title">
      <DialogTitle id="entity-form-title">{title}</DialogTitle>
      <DialogContent dividers>
        {mode === 'edit' && manifest.form?.warningOnEdit && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {manifest.form.warningOnEdit}
          </Alert>
        )}
        {write.error && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
            {write.error}
          </Alert>
        )}
        {pending && <UploadProgress progress={upload} onCancel={() => abort.current?.abort()} />}
        <StaleEditReload failure={write.failure} onReload={onReload} />
        {record && !pending && <RecordChangedNotice entity={manifest.entity} id={record.id} />}
        <Form
          ref={formRef}
          schema={schema}
          uiSchema={uiSchema}
          formData={values}
          validator={formValidator(schema)}
          widgets={FORM_WIDGETS}
          transformErrors={transformErrors}
          translateString={rjsfTranslator(lang)}
          formContext={formContext}
          extraErrors={shownErrors}
          noHtml5Validate
          showErrorList={false}
          disabled={pending}
          onChange={(e) => setValues(e.formData ?? {})}
          onSubmit={(e) => void save(e.formData ?? {})}
        />
      </DialogContent>
      <ModalActions pending={pending} okDisabled={!action || !requiredFilled(fields, values) || Object.keys(problems).length > 0} onCancel={onClose} onOk={() => formRef.current?.submit()} />
    </Dialog>
  );
}
