// Generates kernel/manifest/generated.ts — the TypeScript types of a manifest — from the meta-schema
// (schemas/manifest.schema.json) and the role list (schemas/roles.json), so the shape of a manifest is written
// once. The output is not committed (.gitignore); `npm run typecheck`, `npm run build` and `npm test` write it
// first, and `tsx scripts/build/manifest-types.ts --check` (run by tests/unit/manifest-types.test.ts) fails
// when the file on disk is missing or older than the schemas.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  description?: string;
};

/** The meta-schema places that get a name of their own (JSON pointer -> type name); the rest is written inline. */
const NAMES: Record<string, string> = {
  '': 'Manifest',
  '/properties/record': 'RecordSchema',
  '/properties/storage': 'StorageDecl',
  '/properties/relations/items': 'Relation',
  '/properties/list': 'ListDecl',
  '/properties/list/properties/filters/items': 'FilterDecl',
  '/properties/list/properties/columns/items': 'ColumnDecl',
  '/properties/list/properties/highlight/items': 'HighlightRule',
  '/properties/form': 'FormDecl',
  '/properties/form/properties/ui/additionalProperties': 'FieldUi',
  '/properties/live/additionalProperties': 'LiveDecl',
  '/properties/screen': 'ScreenDecl',
  '/properties/screen/properties/menu': 'MenuDecl',
  '/definitions/role': 'Role',
  '/definitions/condition': 'Condition',
  '/definitions/field': 'FieldSchema',
  '/definitions/fileRule': 'FileRule',
  '/definitions/action': 'ActionDecl',
};

const ident = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key));
const doc = (text: string | undefined, indent: string) => (text ? `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n` : '');

/** The generated module's text for a meta-schema and a role list. */
export function manifestTypesSource(meta: Schema, roleNames: string[]): string {
  const named: string[] = [];
  const done = new Set<string>();

  function named_(pointer: string, schema: Schema): string {
    const name = NAMES[pointer];
    if (!done.has(name)) {
      done.add(name);
      if (pointer === '/definitions/role') {
        named.push(`${doc(schema.description, '')}export type Role = ${roleNames.map((r) => JSON.stringify(r)).join(' | ')};\n`);
      } else {
        const body = typeOf(schema, pointer, '', true);
        named.push(`${doc(schema.description, '')}${body.startsWith('{') ? `export interface ${name} ${body}` : `export type ${name} = ${body};`}\n`);
      }
    }
    return name;
  }

  function resolveRef(ref: string): [string, Schema] {
    const pointer = ref.replace(/^#/, '');
    const schema = pointer.split('/').slice(1).reduce<Schema>((s, key) => s[key] as Schema, meta);
    return [pointer, schema];
  }

  function typeOf(schema: Schema, pointer: string, indent: string, top = false): string {
    if (!top && NAMES[pointer] !== undefined) return named_(pointer, schema);
    if (schema.$ref) {
      const [target, resolved] = resolveRef(schema.$ref);
      return typeOf(resolved, target, indent);
    }
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
    if (schema.anyOf) return schema.anyOf.map((s, i) => typeOf(s, `${pointer}/anyOf/${i}`, indent)).join(' | ');
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    if (types.length === 0 && !schema.properties) return 'unknown';
    return (types.length ? types : ['object'])
      .map((t) => {
        if (t === 'string') return 'string';
        if (t === 'number' || t === 'integer') return 'number';
        if (t === 'boolean') return 'boolean';
        if (t === 'null') return 'null';
        if (t === 'array') {
          const item = schema.items ? typeOf(schema.items, `${pointer}/items`, indent) : 'unknown';
          return /^[\w"]+$/.test(item) ? `${item}[]` : `(${item})[]`;
        }
        return objectType(schema, pointer, indent);
      })
      .join(' | ');
  }

  function objectType(schema: Schema, pointer: string, indent: string): string {
    const inner = `${indent}  `;
    const required = new Set(schema.required ?? []);
    const lines = Object.entries(schema.properties ?? {}).map(
      ([key, prop]) =>
        `${doc(prop.description, inner)}${inner}${ident(key)}${required.has(key) ? '' : '?'}: ${typeOf(prop, `${pointer}/properties/${key}`, inner)};`,
    );
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object') {
      const value = typeOf(extra, `${pointer}/additionalProperties`, inner);
      if (lines.length === 0) return `Record<string, ${value}>`;
      lines.push(`${inner}[key: string]: ${value} | undefined;`);
    } else if (extra !== false) {
      if (lines.length === 0) return 'Record<string, unknown>';
      lines.push(`${inner}[keyword: string]: unknown;`);
    }
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  named_('', meta);
  return [
    '// GENERATED by scripts/build/manifest-types.ts from schemas/manifest.schema.json and schemas/roles.json.',
    '// Do not edit, do not commit (.gitignore): `npm run typecheck`, `npm run build` and `npm test` write it.',
    '',
    ...named,
  ].join('\n');
}

const root = join(import.meta.dirname, '..', '..');
export const GENERATED_PATH = join(root, 'kernel', 'manifest', 'generated.ts');

/** The text the file should hold for the schemas/ folder given. */
export function expectedSource(schemasDir = join(root, 'schemas')): string {
  const meta = JSON.parse(readFileSync(join(schemasDir, 'manifest.schema.json'), 'utf8')) as Schema;
  const roles = JSON.parse(readFileSync(join(schemasDir, 'roles.json'), 'utf8')) as { roles: Record<string, unknown> };
  return manifestTypesSource(meta, Object.keys(roles.roles));
}

/** Writes the file when it differs; returns true when it was written. */
export function writeManifestTypes(): boolean {
  const text = expectedSource();
  if (existsSync(GENERATED_PATH) && readFileSync(GENERATED_PATH, 'utf8') === text) return false;
  writeFileSync(GENERATED_PATH, text);
  return true;
}

/** Null when the generated file is up to date, else what is wrong. */
export function manifestTypesProblem(): string | null {
  if (!existsSync(GENERATED_PATH)) return 'kernel/manifest/generated.ts is missing: run `npm run typecheck` (or `tsx scripts/build/manifest-types.ts`)';
  if (readFileSync(GENERATED_PATH, 'utf8') !== expectedSource()) {
    return 'kernel/manifest/generated.ts is older than schemas/manifest.schema.json or schemas/roles.json: run `tsx scripts/build/manifest-types.ts`';
  }
  return null;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const problem = manifestTypesProblem();
    if (problem) {
      console.error(problem);
      process.exit(1);
    }
  } else writeManifestTypes();
}
