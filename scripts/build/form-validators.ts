// Vite plugin: the validators of every generic form, compiled at build time into plain functions (ajv's
// standalone code through RJSF's compileSchemaValidatorsCode), so the panel validates forms without `eval` and
// runs under a Content-Security-Policy without 'unsafe-eval'. The form schemas derive from the static
// manifests (src/core/form/form-schema.ts), one per entity, mode and role; the panel looks its validator up by
// the schema's hash (src/core/form/validator.ts).
import { resolve } from 'node:path';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import { hashForSchema, type RJSFSchema } from '@rjsf/utils';
import type { Plugin } from 'vite';
import { actionOfKind } from '../../src/core/access/access.ts';
import { CUSTOM_FORMATS, formFields, formJsonSchema, validationSchema, type FormMode } from '../../src/core/form/form-schema.ts';
import { expandManifest } from '../../kernel/manifest/files.ts';
import { readSchemasDir } from '../../kernel/manifest/read-dir.ts';
import type { Manifest } from '../../kernel/manifest/types.ts';
import { ROLES, roleSet } from '../../kernel/roles.ts';

export const FORM_VALIDATORS_MODULE = 'virtual:form-validators';
const RESOLVED = `\0${FORM_VALIDATORS_MODULE}`;

function readManifests(dirs: string[]): Manifest[] {
  return dirs.flatMap((dir) => {
    const { files, roles } = readSchemasDir(dir);
    const names = roleSet(roles.json).names;
    return files.map((f) => expandManifest(f.json as Manifest, names));
  });
}

/** Every root schema the generic form validates: each manifest with form fields, in each mode, for each role (annotations left out). */
export function formSchemas(manifests: Manifest[]): Map<string, RJSFSchema> {
  const schemas = new Map<string, RJSFSchema>();
  for (const manifest of manifests) {
    if (!manifest.form?.fields?.length || manifest.form.override) continue;
    for (const mode of ['create', 'edit'] as FormMode[]) {
      for (const role of ROLES) {
        const action = actionOfKind(manifest, mode === 'edit' ? 'update' : 'create', role);
        const schema = validationSchema(formJsonSchema(manifest, formFields(manifest, mode, role, action?.[1])) as RJSFSchema);
        schemas.set(hashForSchema(schema), schema);
      }
    }
  }
  return schemas;
}

/**
 * One ES module exporting `validators`: {root schema hash: the validate functions of that form}. ajv's
 * standalone output is CommonJS; each form's code runs in its own function scope with `require` answered from
 * the runtime helpers imported once at the top.
 */
export function formValidatorsModule(manifests: Manifest[]): string {
  const imports = new Map<string, string>();
  const bodies: string[] = [];
  for (const [hash, schema] of formSchemas(manifests)) {
    const code = compileSchemaValidatorsCode(schema, { customFormats: CUSTOM_FORMATS, ajvOptionsOverrides: { code: { lines: false, source: true } } });
    const body = code.replace(/require\("([^"]+)"\)/g, (_, path: string) => {
      if (!/^(ajv\/dist\/runtime\/[a-z0-9]+|ajv-formats\/dist\/formats)$/.test(path)) throw new Error(`form validators: unexpected runtime import ${path}`);
      if (!imports.has(path)) imports.set(path, `runtime${imports.size}`);
      return imports.get(path)!;
    });
    bodies.push(`${JSON.stringify(hash)}: (() => { const exports = {}; ${body}; return exports; })()`);
  }
  const head = [...imports].map(([path, name]) => `import * as ${name}Module from ${JSON.stringify(`${path}.js`)};\nconst ${name} = ${name}Module.default && typeof ${name}Module.default === 'object' ? ${name}Module.default : ${name}Module;`);
  return `${head.join('\n')}\nexport const validators = {\n${bodies.join(',\n')}\n};\n`;
}

/** @example plugins: [formValidators(['schemas'])] — then `import { validators } from 'virtual:form-validators'` */
export function formValidators(schemaDirs: string[]): Plugin {
  const dirs = schemaDirs.map((d) => resolve(d));
  return {
    name: 'form-validators',
    resolveId: (id) => (id === FORM_VALIDATORS_MODULE ? RESOLVED : undefined),
    load: (id) => (id === RESOLVED ? formValidatorsModule(readManifests(dirs)) : undefined),
    handleHotUpdate({ file, server }) {
      if (!dirs.some((d) => file.startsWith(d))) return;
      const module = server.moduleGraph.getModuleById(RESOLVED);
      if (module) server.moduleGraph.invalidateModule(module);
    },
  };
}
