import type { ActionDecl, FieldSchema, Manifest, Role } from '../../../kernel/manifest/types.ts';
import { fileRuleOf } from './files.ts';
import { CUSTOM_FORMATS } from '../../../kernel/rules/formats.ts';

export type FormMode = 'create' | 'edit';

export interface FormField {
  name: string;
  schema: FieldSchema;
  required: boolean;
  disabled: boolean;
  widget?: string;
  help?: string;
  /** An upload field (`storage.files`): the form holds the chosen file's name. */
  file?: boolean;
}

/**
 * The fields of a manifest's modal: `form.fields` in order, readOnly fields left out. On edit, `lockedOnEdit`
 * fields are disabled, and a writeOnly field (a password) is required only when the update exists to change it.
 * @example formFields(userManifest, 'edit', 'admin', update) // email and role disabled, password required
 */
export function formFields(manifest: Manifest, mode: FormMode, role: Role, update?: ActionDecl): FormField[] {
  const props = manifest.record?.properties ?? {};
  const required = new Set(manifest.record?.required ?? []);
  const ui = manifest.form?.ui ?? {};
  const locked = new Set(mode === 'edit' ? (manifest.form?.lockedOnEdit ?? update?.locked ?? []) : []);
  return (manifest.form?.fields ?? [])
    .filter((name) => props[name] && !props[name].readOnly)
    .map((name) => {
      const schema = props[name];
      const hint = ui[name] ?? {};
      const isLocked = locked.has(name) || Boolean(hint.readonlyFor?.includes(role));
      const rule = fileRuleOf(manifest, name);
      let isRequired = required.has(name);
      if (mode === 'edit' && schema.writeOnly) isRequired = Boolean(update?.writable?.includes(name));
      // An upload that replaces a JSON field's content is the edit itself; a stored file stays unless replaced.
      if (mode === 'edit' && rule && !rule.into) isRequired = false;
      if (isLocked) isRequired = false;
      const widget = hint.widget ?? (rule ? 'file' : undefined);
      return { name, schema, required: isRequired, disabled: isLocked, widget, help: hint.help ?? schema.description, file: Boolean(rule) };
    });
}

/** The JSON Schema the form renders and validates: the form's fields only, labels from `form.ui.*.label`. */
export function formJsonSchema(manifest: Manifest, fields: FormField[]): Record<string, unknown> {
  const ui = manifest.form?.ui ?? {};
  const properties: Record<string, FieldSchema> = {};
  for (const f of fields) {
    const title = ui[f.name]?.label ?? f.schema.title ?? f.name;
    if (f.file) {
      properties[f.name] = { type: 'string', title };
      continue;
    }
    // The description reaches the form once, as the field's help (RJSF would print it a second time).
    const { readOnly: _r, writeOnly: _w, 'x-json': _j, 'x-derived': _d, description: _t, ...rest } = f.schema;
    properties[f.name] = { ...rest, title };
  }
  return { type: 'object', required: fields.filter((f) => f.required).map((f) => f.name), properties };
}

function filled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** The OK gate of every modal: each required field holds a value. */
export function requiredFilled(fields: FormField[], values: Record<string, unknown>): boolean {
  return fields.every((f) => !f.required || filled(values[f.name]));
}

/** The initial values: the list row on edit (secrets blank), schema defaults on create. */
export function initialValues(fields: FormField[], record: Record<string, unknown> | null): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const f of fields) {
    if (record) {
      // An upload field starts empty on edit; the picker shows what is stored.
      if (f.file) continue;
      if (!f.schema.writeOnly && record[f.name] !== undefined && record[f.name] !== null) values[f.name] = record[f.name];
    } else if (f.schema.default !== undefined) values[f.name] = f.schema.default;
  }
  return values;
}

/** Formats of the manifests' record schemas (docs/manifests.md), for the form validator: kernel/rules/formats.ts. */
export { CUSTOM_FORMATS };

/** Keywords that never change what is valid: a form may carry values for them only known at run time, or titles in the panel's language. */
const ANNOTATIONS = new Set(['default', 'description', 'examples', '$comment', 'title']);

/**
 * The part of a form schema that validation depends on: annotations removed at every depth, so a default known
 * only at run time (the tester's office IP) validates with the validator compiled at build time.
 * @example validationSchema({type: 'string', default: '10.0.0.1'}) // {type: 'string'}
 */
export function validationSchema<S>(schema: S): S {
  if (Array.isArray(schema)) return schema.map((item) => validationSchema(item)) as S;
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // Under `properties` the keys are field names, never keywords.
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, field]) => [name, validationSchema(field)]));
    } else if (!ANNOTATIONS.has(key)) out[key] = validationSchema(value);
  }
  return out as S;
}
