// Validates entity manifests against schemas/manifest.schema.json and cross-checks what JSON Schema cannot see
// (field references, relation targets, unique routes). Runs in Node and in the browser build: no fs here.
import Ajv, { type ErrorObject } from 'ajv';
import metaSchema from '../../schemas/manifest.schema.json' with { type: 'json' };
import declaredRoles from '../../schemas/roles.json' with { type: 'json' };
import { roleSet, rolesFileProblems } from '../roles.ts';
import { ManifestError, problemCollector } from './error.ts';
import { expandManifest } from './files.ts';
import { checkRecordSchemas } from './record-check.ts';
import type { Manifest } from './types.ts';

export { ManifestError };

const compiled = new Map<string, ReturnType<Ajv['compile']>>();
/** The meta-schema with its role list filled in from the roles file (compiled once per role list). */
function metaValidator(roleNames: readonly string[]) {
  const key = roleNames.join(',');
  let validate = compiled.get(key);
  if (!validate) {
    const schema = structuredClone(metaSchema) as { definitions: { role: Record<string, unknown> } };
    schema.definitions.role.enum = [...roleNames];
    validate = new Ajv({ allErrors: false, strict: false }).compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') {
    return `unknown key "${(error.params as { additionalProperty: string }).additionalProperty}"`;
  }
  if (error.keyword === 'required') return `missing key "${(error.params as { missingProperty: string }).missingProperty}"`;
  if (error.keyword === 'enum') {
    return `${error.message}: ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`;
  }
  return error.message ?? error.keyword;
}

/** The roles file a check reads: its JSON and the name it is reported under. */
export interface RolesSource {
  file: string;
  json: unknown;
}

const DECLARED: RolesSource = { file: 'schemas/roles.json', json: declaredRoles };

/**
 * Checks every manifest and returns them typed (with `x-enum` lists filled in). Every mistake is reported at
 * once, in one ManifestError naming file and path of each: first the files' shapes (the meta-schema, one mistake
 * per file); when they all hold, what ties them together (fields, relations, record schemas, role homes) and
 * `more`, the caller's own checks (the registry names), each manifest's first mistake of each.
 * `roles` is the roles file (default: this application's schemas/roles.json).
 * @example validateManifests([{ file: 'schemas/platform.json', json }]) // -> [platformManifest]
 */
export function validateManifests(
  files: { file: string; json: unknown }[],
  roles: RolesSource = DECLARED,
  more?: (manifests: { file: string; manifest: Manifest }[]) => void,
): Manifest[] {
  const [rolesProblem, ...otherRoleProblems] = rolesFileProblems(roles.json);
  if (rolesProblem) {
    const rest = otherRoleProblems.map((p) => ({ file: roles.file, path: p.path, problem: p.problem }));
    throw new ManifestError(roles.file, rolesProblem.path, rolesProblem.problem, rest);
  }
  const set = roleSet(roles.json);
  const validate = metaValidator(set.names);
  const manifests: { file: string; m: Manifest }[] = [];
  const shapes = problemCollector();
  for (const { file, json } of files) {
    if (!validate(json)) {
      const error = validate.errors![0];
      shapes.run(() => {
        throw new ManifestError(file, error.instancePath, describe(error));
      });
      continue;
    }
    manifests.push({ file, m: expandManifest(json as Manifest, set.names) });
  }
  // A file of the wrong shape is left out of what follows, which would only report what its absence causes.
  shapes.done();
  const problems = problemCollector();
  crossCheck(manifests, problems.run);
  const named = manifests.map(({ file, m }) => ({ file, manifest: m }));
  for (const one of named) problems.run(() => checkRecordSchemas([one]));
  for (const [role, home] of Object.entries(set.homes)) {
    problems.run(() => {
      const screen = manifests.find(({ m }) => m.screen?.route === home);
      if (!screen) throw new ManifestError(roles.file, `/roles/${role}/home`, `no manifest declares a screen at route "${home}"`);
      if (!screen.m.screen!.roles.includes(role as never)) {
        throw new ManifestError(roles.file, `/roles/${role}/home`, `the screen at "${home}" (${screen.file}) does not list role "${role}"`);
      }
    });
  }
  if (more) problems.run(() => more(named));
  problems.done();
  return manifests.map(({ m }) => m);
}

/** The checks across manifests; `each` runs one manifest's (which stop at its first mistake) and keeps its mistake. */
function crossCheck(manifests: { file: string; m: Manifest }[], each: (check: () => void) => void): void {
  const byEntity = new Map<string, Manifest>();
  const entityFile = new Map<string, string>();
  for (const { file, m } of manifests) {
    if (entityFile.has(m.entity)) {
      each(() => {
        throw new ManifestError(file, '/entity', `entity "${m.entity}" is also declared in ${entityFile.get(m.entity)}`);
      });
      continue;
    }
    entityFile.set(m.entity, file);
    byEntity.set(m.entity, m);
  }
  const routes = new Map<string, string>();
  const apiPaths = new Map<string, string>();
  const tables = new Map<string, string>();
  const liveTypes = new Map<string, string>();
  for (const { file, m } of manifests) each(() => {
    const fail = (path: string, problem: string): never => {
      throw new ManifestError(file, path, problem);
    };
    const props = m.record?.properties ?? {};
    const relations = m.relations ?? [];
    const own = (field: string, path: string) => {
      if (!(field in props)) fail(path, `field "${field}" is not in record.properties`);
    };
    // A field shown or filtered may be own, relation.field (the related entity's field) or compose.field.
    const shown = (field: string, path: string) => {
      const dot = field.indexOf('.');
      if (dot < 0) return own(field, path);
      const head = field.slice(0, dot);
      const tail = field.slice(dot + 1);
      const relation = relations.find((r) => r.name === head);
      if (relation) {
        const target = byEntity.get(relation.entity);
        if (target && !(tail in (target.record?.properties ?? {}))) {
          fail(path, `field "${tail}" is not in the record of entity "${relation.entity}"`);
        }
        return;
      }
      if (m.compose?.[head]?.[tail] !== undefined) return;
      fail(path, `"${field}" names neither a relation nor a compose field`);
    };

    if (m.table) {
      if (tables.has(m.table)) fail('/table', `table "${m.table}" is also used by ${tables.get(m.table)}`);
      tables.set(m.table, file);
    }
    for (const [name, schema] of Object.entries(props)) {
      const derived = schema['x-derived'];
      if (derived) own(derived.from, `/record/properties/${name}/x-derived/from`);
    }
    (m.record?.required ?? []).forEach((f, i) => own(f, `/record/required/${i}`));
    const storage = m.storage ?? {};
    storage.unique?.forEach((fields, i) => fields.forEach((f, j) => own(f, `/storage/unique/${i}/${j}`)));
    storage.indexes?.forEach((fields, i) => fields.forEach((f, j) => own(f, `/storage/indexes/${i}/${j}`)));
    storage.secrets?.forEach((f, i) => {
      own(f, `/storage/secrets/${i}`);
      if (!props[f].writeOnly) fail(`/storage/secrets/${i}`, `secret field "${f}" must be writeOnly`);
    });
    for (const [name, rule] of Object.entries(storage.files ?? {})) {
      if (rule.into) own(rule.into, `/storage/files/${name}/into`);
    }
    relations.forEach((r, i) => {
      own(r.field, `/relations/${i}/field`);
      const target = byEntity.get(r.entity);
      if (!target) fail(`/relations/${i}/entity`, `entity "${r.entity}" does not exist`);
      if (!target!.table) fail(`/relations/${i}/entity`, `entity "${r.entity}" has no table`);
      (r.show ?? []).forEach((f, j) => {
        if (!(f in (target!.record?.properties ?? {}))) {
          fail(`/relations/${i}/show/${j}`, `field "${f}" is not in the record of entity "${r.entity}"`);
        }
      });
    });
    for (const [name, parts] of Object.entries(m.compose ?? {})) {
      for (const [part, column] of Object.entries(parts)) own(column, `/compose/${name}/${part}`);
    }
    const list = m.list ?? {};
    list.sortable?.forEach((f, i) => shown(f, `/list/sortable/${i}`));
    if (list.defaultOrder) shown(list.defaultOrder.field, '/list/defaultOrder/field');
    const params = new Set<string>();
    list.filters?.forEach((f, i) => {
      shown(f.field, `/list/filters/${i}/field`);
      const param = f.param ?? f.field;
      if (params.has(param)) fail(`/list/filters/${i}`, `filter parameter "${param}" is declared twice`);
      params.add(param);
      if (f.lookup && !byEntity.has(f.lookup)) fail(`/list/filters/${i}/lookup`, `entity "${f.lookup}" does not exist`);
      if (f.lookupValue && !(f.lookup && byEntity.get(f.lookup)?.record?.properties[f.lookupValue])) {
        fail(`/list/filters/${i}/lookupValue`, `the lookup entity has no field "${f.lookupValue}"`);
      }
    });
    list.columns?.forEach((c, i) => {
      shown(c.field, `/list/columns/${i}/field`);
      if (c.prefixField) shown(c.prefixField, `/list/columns/${i}/prefixField`);
    });
    list.highlight?.forEach((h, i) => shown(h.when.field, `/list/highlight/${i}/when/field`));
    const form = m.form ?? {};
    form.fields?.forEach((f, i) => own(f, `/form/fields/${i}`));
    form.lockedOnEdit?.forEach((f, i) => own(f, `/form/lockedOnEdit/${i}`));
    for (const [field, ui] of Object.entries(form.ui ?? {})) {
      own(field, `/form/ui/${field}`);
      if (ui.lookup && !byEntity.has(ui.lookup)) fail(`/form/ui/${field}/lookup`, `entity "${ui.lookup}" does not exist`);
    }
    for (const type of Object.keys(m.live ?? {})) {
      if (liveTypes.has(type)) fail(`/live/${type}`, `live item type "${type}" is also declared by ${liveTypes.get(type)}`);
      liveTypes.set(type, file);
    }
    if (m.screen) {
      if (routes.has(m.screen.route)) fail('/screen/route', `route "${m.screen.route}" is also used by ${routes.get(m.screen.route)}`);
      routes.set(m.screen.route, file);
    }
    // A lookup the screen's roles cannot list would leave them an empty select: a build error.
    const listers = (entity: string) =>
      Object.values(byEntity.get(entity)?.actions ?? {}).filter((a) => a.kind === 'list').flatMap((a) => a.roles as string[]);
    const lookups: [string, string][] = [
      ...(list.filters ?? []).flatMap((f, i): [string, string][] => (f.lookup ? [[f.lookup, `/list/filters/${i}/lookup`]] : [])),
      ...Object.entries(form.ui ?? {}).flatMap(([field, ui]): [string, string][] => (ui.lookup ? [[ui.lookup, `/form/ui/${field}/lookup`]] : [])),
    ];
    if (m.screen) {
      for (const [entity, path] of lookups) {
        const missing = (m.screen.roles as string[]).filter((r) => !listers(entity).includes(r));
        if (missing.length) {
          fail(path, `the screen's roles ${missing.join(', ')} cannot list entity "${entity}" (its list action allows ${listers(entity).join(', ') || 'no role'})`);
        }
      }
    }
    for (const [name, action] of Object.entries(m.actions)) {
      const at = `/actions/${name}`;
      const call = `${action.method} ${action.path}`;
      if (apiPaths.has(call)) fail(`${at}/path`, `${call} is also declared by ${apiPaths.get(call)}`);
      apiPaths.set(call, `${file} at ${at}`);
      if (action.public) {
        if (action.roles.length) fail(`${at}/roles`, 'a public action lists no roles');
      } else if (!action.roles || action.roles.length === 0) fail(`${at}/roles`, 'every action needs roles');
      if (action.kind !== 'custom' && !m.table) fail(`${at}/kind`, `a "${action.kind}" action needs a table`);
      action.key?.forEach((f, i) => own(f, `${at}/key/${i}`));
      action.writable?.forEach((f, i) => own(f, `${at}/writable/${i}`));
      action.locked?.forEach((f, i) => own(f, `${at}/locked/${i}`));
      if (action.field) {
        own(action.field, `${at}/field`);
        if (action.kind === 'toggle' && props[action.field].type !== 'boolean') {
          fail(`${at}/field`, `toggle field "${action.field}" must be a boolean`);
        }
      }
      if (action.refuseWhen) own(action.refuseWhen.field, `${at}/refuseWhen/field`);
      if (action.before && action.kind !== 'destroy') fail(`${at}/before`, 'only a destroy action runs a before hook');
      for (const [role, fields] of Object.entries(action.forRole ?? {})) {
        for (const f of Object.keys(fields ?? {})) own(f, `${at}/forRole/${role}/${f}`);
      }
      if (action.kind === 'destroyByFilter' && !(list.filters?.length)) {
        fail(`${at}/kind`, 'destroyByFilter needs list.filters');
      }
    }
  });
}
