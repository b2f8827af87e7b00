// How each action kind's input is read before its route schema (routeSchemaOf) checks it: the steps the schema
// cannot say (strings of a query or form converted by the field's type, a read-only field refused with its own
// sentence, an empty filter meaning none, the version of an edit kept apart) and the titles its messages use.
// server/core/input.ts's routeValidation runs them, then the compiled schema, as the route's Fastify validator.
import type { ActionDecl, FieldSchema } from '../../../kernel/manifest/types.ts';
import type { Engine } from '../../core/context.ts';
import type { InputRules } from '../../core/input.ts';
import { inputSource, type Json } from '../../contract/route-schema.ts';
import { publicSchema } from '../../contract/schema-parts.ts';
import { fileRules, storedFileFields } from '../../core/file-paths.ts';
import type { EntityModel } from '../../model/model.ts';
import { VERSION_FIELD } from '../versions.ts';
import { coerceFilters, filterParams, filterSchemaProps, type FilterParam } from './filters.ts';
import { coerceAll, keyOf, refuseReadOnly } from './shared.ts';

const PAGING: Record<string, FieldSchema> = { page: { type: 'integer' }, pageSize: { type: 'integer' } };

/** An empty filter (or sort) is no filter: it is dropped, unless the filter is required (then the schema refuses it). */
function dropEmpty(filters: FilterParam[], input: Record<string, unknown>, sorting: boolean) {
  for (const f of filters) if (!f.decl.required && input[f.param] === '') delete input[f.param];
  if (sorting) for (const field of ['sortBy', 'sortOrder']) if (input[field] === '') delete input[field];
}

/** The rules of a list's parameters (also the CSV export's, which drops the paging ones first). */
export function listRules(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, paging: 'read' | 'ignore'): InputRules {
  const filters = filterParams(engine, model);
  return {
    source: 'query',
    props: { ...PAGING, ...filterSchemaProps(filters) },
    prepare: (input) => {
      if (paging === 'ignore') for (const field of ['page', 'pageSize', 'after']) delete input[field];
      dropEmpty(filters, input, true);
      coerceAll(input, PAGING, 'query');
      coerceFilters(filters, input, 'query');
    },
  };
}

/** The rules of one declared action's input. */
export function inputRulesOf(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel | undefined, action: ActionDecl): InputRules {
  const source = inputSource(action);
  if (action.kind === 'custom' || !model) {
    const props = ((action.inputSchema as { properties?: Record<string, FieldSchema> } | undefined)?.properties ?? {});
    return { source, props, prepare: (input) => coerceAll(input, props, source) };
  }
  const versioned = model.hasColumn(VERSION_FIELD);
  // The version an edit or delete was made from is checked by the write (server/crud/versions.ts).
  const setAside = versioned ? (field: string) => field === VERSION_FIELD : undefined;
  const key = keyOf(action);
  switch (action.kind) {
    case 'list':
      return { ...listRules(engine, model, 'read'), source };
    case 'destroyByFilter': {
      const filters = filterParams(engine, model);
      return {
        source,
        props: filterSchemaProps(filters),
        prepare: (input) => {
          dropEmpty(filters, input, false);
          coerceFilters(filters, input, source);
        },
      };
    }
    case 'destroyAll':
      return { source, props: {} };
    case 'toggle':
    case 'destroy':
      return { source, props: model.props, setAside, prepare: (input) => coerceAll(input, model.props, source) };
    case 'create':
    case 'update': {
      const allowed = new Set(action.kind === 'create' ? model.settable : [...key, ...(action.writable ?? model.settable), ...(action.locked ?? [])]);
      return {
        source,
        props: model.props,
        setAside: action.kind === 'update' ? setAside : undefined,
        // A stored file was taken from the form by its rule (server/crud/files.ts) before the schema is run.
        omit: storedFileFields(model),
        override: source === 'multipart' ? formFieldSchemas(model) : undefined,
        prepare: (input) => {
          refuseReadOnly(model, input, allowed);
          coerceAll(input, model.props, source);
        },
      };
    }
  }
}

/**
 * A form's JSON fields travel as JSON text (the document says so); the schema checks the value once it is parsed,
 * or once a file that fills the field was read (a file rule with `into`).
 */
function formFieldSchemas(model: EntityModel): Record<string, Json> {
  const out: Record<string, Json> = {};
  const files = fileRules(model);
  for (const [field, schema] of Object.entries(model.props)) {
    if (schema['x-json'] || (files[field] && !files[field].path)) out[field] = publicSchema(schema, true);
  }
  return out;
}
