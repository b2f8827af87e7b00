import type { FileRule, Manifest } from '../../../kernel/manifest/types.ts';

/** The upload rule of a field when `storage.files` names it, else undefined. */
export function fileRuleOf(manifest: Manifest, field: string): FileRule | undefined {
  const files = manifest.storage?.files;
  return files && Object.hasOwn(files, field) ? files[field] : undefined;
}

/** The file picker's `accept` for an upload rule. */
export function acceptOf(rule: FileRule): string {
  return { png: '.png,image/png', image: 'image/*', css: '.css,text/css', json: '.json,application/json' }[rule.kind];
}

/**
 * Files chosen in one form, by field: the form data holds the file name (so required checks and validation
 * see a value) and the call sends the File itself.
 */
export type ChosenFiles = Map<string, File>;

/** Replaces chosen file names by their Files; an upload field that still holds the stored value is not sent. */
export function withFiles(manifest: Manifest, payload: Record<string, unknown>, files: ChosenFiles): Record<string, unknown> {
  const out = { ...payload };
  for (const field of Object.keys(manifest.storage?.files ?? {})) {
    const file = files.get(field);
    if (file && out[field] === file.name) out[field] = file;
    else delete out[field];
  }
  return out;
}
