// Compiles every record schema and action inputSchema with ajv in strict mode, so a misspelt keyword
// (`maxLenght`) or an unknown format is an error naming the manifest file and JSON path, not a silent no-op.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { CUSTOM_FORMATS } from '../rules/formats.ts';
import type { Manifest } from './types.ts';
import { ManifestError } from './error.ts';

/** The engine's own keywords (docs/manifests.md); they carry meaning for the engine, none for validation. */
export const ENGINE_KEYWORDS = ['x-json', 'x-derived', 'x-enum', 'x-cell'] as const;

let strictAjv: Ajv | undefined;
function ajv(): Ajv {
  if (!strictAjv) {
    strictAjv = new Ajv({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, allErrors: false });
    addFormats(strictAjv);
    for (const [name, pattern] of Object.entries(CUSTOM_FORMATS)) strictAjv.addFormat(name, pattern);
    for (const keyword of ENGINE_KEYWORDS) strictAjv.addKeyword({ keyword });
  }
  return strictAjv;
}

/** The JSON path of the first place in `schema` that holds key `key` (or the format `format`). */
function find(schema: unknown, test: (key: string, value: unknown) => boolean, path = ''): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  for (const [key, value] of Object.entries(schema)) {
    const here = `${path}/${key}`;
    if (test(key, value)) return here;
    const deeper = find(value, test, here);
    if (deeper) return deeper;
  }
  return undefined;
}

function compile(file: string, at: string, schema: unknown): void {
  try {
    ajv().compile(schema as object);
  } catch (error) {
    const message = (error as Error).message;
    const keyword = /unknown keyword: "([^"]+)"/.exec(message)?.[1];
    const format = /unknown format "([^"]+)"/.exec(message)?.[1];
    const path = keyword
      ? find(schema, (k) => k === keyword)
      : format
        ? find(schema, (k, v) => k === 'format' && v === format)
        : undefined;
    const problem = keyword
      ? `unknown JSON Schema keyword "${keyword}" (a misspelling? the engine's own are ${ENGINE_KEYWORDS.join(', ')})`
      : format
        ? `unknown format "${format}" (known: ${Object.keys(ajv().formats).join(', ')})`
        : message.replace(/^schema is invalid: /, 'not a valid JSON Schema: ');
    throw new ManifestError(file, `${at}${path ?? ''}`, problem);
  }
}

/** Throws a ManifestError for the first record schema or inputSchema ajv refuses in strict mode. */
export function checkRecordSchemas(manifests: { file: string; manifest: Manifest }[]): void {
  for (const { file, manifest } of manifests) {
    if (manifest.record) compile(file, '/record', manifest.record);
    for (const [name, action] of Object.entries(manifest.actions)) {
      if (action.inputSchema) compile(file, `/actions/${name}/inputSchema`, action.inputSchema);
    }
  }
}
