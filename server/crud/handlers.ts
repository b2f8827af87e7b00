// One handler per action kind of docs/manifests.md, built once per declared action.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ActionDecl, FieldSchema, FilterDecl, Role } from '../../src/core/manifest/types.ts';
import { AppError, badRequest, conflict, notFound } from '../errors.ts';
import { hashPassword } from '../plugins/passwords.ts';
import type { Actor } from '../plugins/audit.ts';
import { beforeDestroy, customHandlers, recordChecks, valueSources } from '../actions/index.ts';
import { revokeTokensOf, type Engine } from './context.ts';
import { check, coerce, objectValidator, ajv, titleOf, type InputSource } from './input.ts';
import { refusalText } from '../../src/core/manifest/error-text.ts';
import { fieldKind, isEmailField, secretColumn, type EntityModel } from './model.ts';
import { storedFileFields, takeUploads, withFiles } from './files.ts';
import { columnRef, joinRelations, present, readOne, selectRows, toDb } from './rows.ts';
import { checkVersion, nextVersion, takeVersion } from './versions.ts';
import { deleteUnreferenced } from './references.ts';
import { countList, readRows, relationsOf } from './list-query.ts';
import { trigramCondition } from '../db/text-search.ts';

export interface CallContext {
  input: Record<string, unknown>;
  source: InputSource;
  actor: Actor & { role: Role };
  path: string;
  /** The entity of the manifest that declares the call; its committed writes are announced for it. */
  entity: string;
  /** The caller's address and the backend's origin, for device calls. */
  client?: { ip: string; origin: string };
}

export type ActionHandler = (call: CallContext) => Promise<unknown>;


function matches(condition: { field: string; equals?: unknown; notEquals?: unknown }, record: Record<string, unknown>) {
  const value = record[condition.field];
  if ('equals' in condition) return value === condition.equals;
  if ('notEquals' in condition) return value !== condition.notEquals;
  return false;
}

const derive = (fn: 'md5' | 'sha256', value: unknown) =>
  value === null || value === undefined ? null : createHash(fn).update(String(value)).digest('hex');

/** The manifest's `check` on a record about to be stored, in the write's transaction: its problems are one 400. */
async function runCheck(engine: Engine, action: ActionDecl, record: Record<string, unknown>, db: Kysely<any>, mode: 'create' | 'update') {
  const problems = action.check ? await recordChecks[action.check](record, { engine, db, mode }) : [];
  if (problems.length) throw badRequest(problems.join('; '));
}

/** Builds the handler of one declared action. */
export function buildHandler(engine: Engine, model: EntityModel | undefined, name: string, action: ActionDecl): ActionHandler {
  if (action.check && !recordChecks[action.check]) throw new Error(`action ${name}: no server/actions check named "${action.check}"`);
  if (action.before && !beforeDestroy[action.before]) throw new Error(`action ${name}: no server/actions before-destroy hook named "${action.before}"`);
  if (action.kind === 'custom') return customHandler(engine, action);
  if (!model) throw new Error(`action ${name} needs a table`);
  switch (action.kind) {
    case 'list':
      return listHandler(engine, model);
    case 'create':
      return createHandler(engine, model, action);
    case 'update':
      return updateHandler(engine, model, action);
    case 'destroy':
      return destroyHandler(engine, model, action);
    case 'toggle':
      return toggleHandler(engine, model, action);
    case 'destroyAll':
      return destroyAllHandler(engine, model);
    case 'destroyByFilter':
      return destroyByFilterHandler(engine, model);
  }
}

function coerceAll(input: Record<string, unknown>, props: Record<string, FieldSchema>, source: InputSource) {
  for (const [field, value] of Object.entries(input)) {
    if (props[field]) input[field] = coerce(value, props[field], field, source !== 'json');
  }
}

/** Refuses fields the caller may never set, with a message better than "not accepted". */
function refuseReadOnly(model: EntityModel, input: Record<string, unknown>, allowed: Set<string>) {
  for (const field of Object.keys(input)) {
    if (allowed.has(field)) continue;
    const schema = model.props[field];
    if (schema?.readOnly || schema?.['x-derived']) throw badRequest(refusalText.readOnly(titleOf(model.props, field)));
    if (schema) throw badRequest(refusalText.notByThisCall(titleOf(model.props, field)));
  }
}

function pick(props: Record<string, FieldSchema>, fields: Iterable<string>): Record<string, FieldSchema> {
  const out: Record<string, FieldSchema> = {};
  for (const f of fields) out[f] = props[f];
  return out;
}

async function applyForRole(engine: Engine, action: ActionDecl, call: CallContext, values: Record<string, unknown>, trx: Kysely<any>) {
  for (const [field, source] of Object.entries(action.forRole?.[call.actor.role] ?? {})) {
    values[field] = await valueSources[source]({ engine, db: trx, actor: call.actor });
  }
}

/** Stored values of the given fields: secrets hashed, derived fields computed, kinds converted. */
async function storedValues(engine: Engine, model: EntityModel, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    if (model.secrets.has(field)) out[secretColumn(field)] = await hashPassword(String(value));
    else out[field] = toDb(engine, model.kindOf(field), value);
  }
  for (const [field, schema] of Object.entries(model.props)) {
    const derived = schema['x-derived'];
    if (derived && derived.from in values) out[field] = derive(derived.fn, values[derived.from]);
  }
  return out;
}

async function checkRelations(engine: Engine, model: EntityModel, values: Record<string, unknown>, trx: Kysely<any>) {
  for (const relation of model.manifest.relations ?? []) {
    const value = values[relation.field];
    if (value === null || value === undefined) continue;
    const target = engine.models.get(relation.entity)!;
    const found = await trx.selectFrom(target.table).select('id').where('id', '=', value).executeTakeFirst();
    if (!found) throw badRequest(refusalText.noRecord(titleOf(model.props, relation.field), relation.entity, value));
  }
}

async function checkUnique(engine: Engine, model: EntityModel, stored: Record<string, unknown>, trx: Kysely<any>, exceptId?: number) {
  for (const fields of model.manifest.storage?.unique ?? []) {
    if (!fields.some((f) => f in stored)) continue;
    let query = trx.selectFrom(model.table).select('id');
    for (const f of fields) {
      const value = stored[f];
      if (value === null || value === undefined) query = query.where(f, 'is', null);
      else if (isEmailField(model, f)) query = query.where(sql`lower(${sql.ref(f)})`, '=', String(value).toLowerCase());
      else query = query.where(f, '=', value);
    }
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    if (await query.executeTakeFirst()) {
      throw conflict(refusalText.taken(fields.map((f) => titleOf(model.props, f))));
    }
  }
}

/**
 * Runs a write and its audit row in one transaction; constraint violations become 409. After the commit the
 * change feed hears of the call's entity and of every entity in `touches` (what a custom handler also writes).
 */
async function write<T>(engine: Engine, call: CallContext, body: (trx: Kysely<any>) => Promise<T>, touches: string[] = []): Promise<T> {
  try {
    const result = await engine.db.transaction().execute(async (trx) => {
      const out = await body(trx);
      await engine.audit.write(trx, call.actor, call.path, { entity: call.entity, recordId: recordIdOf(out) });
      return out;
    });
    for (const entity of new Set([call.entity, ...touches])) engine.changes.emit({ entity, path: call.path });
    return result;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (engine.caps.isUniqueViolation(error)) throw conflict('A unique value is already taken');
    if (engine.caps.isForeignKeyViolation(error)) throw conflict('The record is still referenced by other records');
    throw error;
  }
}

/** The id of the record a write answered with (create, update, toggle, destroy), for its audit row. */
function recordIdOf(out: unknown): number | null {
  const id = (out as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

function keyOf(action: ActionDecl) {
  return action.key ?? ['id'];
}

async function findByKey(engine: Engine, model: EntityModel, key: string[], input: Record<string, unknown>, trx: Kysely<any>) {
  let query = selectRows(engine, model, trx);
  for (const f of key) query = query.where(`t.${f}`, '=', toDb(engine, model.kindOf(f), input[f]));
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(`No ${model.entity} with ${key.map((f) => `${f} ${String(input[f])}`).join(' and ')}`);
  return present(engine, model, row);
}

function refuse(action: ActionDecl, record: Record<string, unknown>) {
  if (action.refuseWhen && matches(action.refuseWhen, record)) throw conflict(action.refuseWhen.message);
}

async function revokeIfAccount(engine: Engine, model: EntityModel, trx: Kysely<any>, id: number) {
  if (model === engine.accounts) await revokeTokensOf(trx, id);
}

/** After the revoking write committed: the account's live sockets are cut at once. */
function endSessionsIfAccount(engine: Engine, model: EntityModel, id: number) {
  if (model === engine.accounts) engine.live.endSessions({ userId: id });
}

function createHandler(engine: Engine, model: EntityModel, action: ActionDecl): ActionHandler {
  const settable = new Set(model.settable);
  const fileFields = storedFileFields(model);
  const required = (model.manifest.record!.required ?? []).filter((f) => settable.has(f) && model.props[f].default === undefined);
  const validate = objectValidator(
    pick(model.props, [...settable].filter((f) => !fileFields.has(f))),
    required.filter((f) => !fileFields.has(f)),
  );
  return async (call) => {
    const input = call.input;
    const files = await takeUploads(model, input);
    refuseReadOnly(model, input, settable);
    coerceAll(input, model.props, call.source);
    check(validate, input);
    for (const f of required) if (fileFields.has(f) && !files.has(f)) throw badRequest(`${titleOf(model.props, f)} is required`);
    const values: Record<string, unknown> = {};
    for (const f of settable) {
      if (f in input) values[f] = input[f];
      else if (model.props[f].default !== undefined) values[f] = model.props[f].default;
    }
    const now = new Date().toISOString();
    return withFiles(engine, (staging) => write(engine, call, async (trx) => {
      await runCheck(engine, action, values, trx, 'create');
      await applyForRole(engine, action, call, values, trx);
      await checkRelations(engine, model, values, trx);
      Object.assign(values, await staging.place(model, files, values));
      const stored = await storedValues(engine, model, values);
      if (model.hasColumn('createdAt')) stored.createdAt = now;
      if (model.hasColumn('updatedAt')) stored.updatedAt = now;
      await checkUnique(engine, model, stored, trx);
      const inserted = await trx.insertInto(model.table).values(stored).returning('id').executeTakeFirstOrThrow();
      await staging.apply(trx);
      return readOne(engine, model, Number(inserted.id), trx);
    }));
  };
}

function updateHandler(engine: Engine, model: EntityModel, action: ActionDecl): ActionHandler {
  const key = keyOf(action);
  const writable = new Set((action.writable ?? model.settable).filter((f) => !key.includes(f)));
  const locked = new Set(action.locked ?? []);
  const allowed = new Set([...key, ...writable, ...locked]);
  const fileFields = storedFileFields(model);
  const validate = objectValidator(pick(model.props, [...allowed].filter((f) => !fileFields.has(f))), key);
  return async (call) => {
    const input = call.input;
    const version = takeVersion(model, input);
    const files = await takeUploads(model, input);
    for (const f of files.keys()) if (!writable.has(f)) throw badRequest(refusalText.notByThisCall(titleOf(model.props, f)));
    refuseReadOnly(model, input, allowed);
    coerceAll(input, model.props, call.source);
    check(validate, input);
    const secretChanged = [...model.secrets].some((f) => f in input);
    const saved = await withFiles(engine, (staging) => write(engine, call, async (trx) => {
      const current = await findByKey(engine, model, key, input, trx);
      refuse(action, current);
      await checkVersion(engine, model, current, version, trx);
      for (const f of locked) {
        if (f in input && !key.includes(f) && JSON.stringify(input[f]) !== JSON.stringify(current[f])) {
          throw badRequest(refusalText.locked(titleOf(model.props, f)));
        }
      }
      const values: Record<string, unknown> = {};
      for (const f of writable) if (f in input) values[f] = input[f];
      await runCheck(engine, action, { ...current, ...values }, trx, 'update');
      await applyForRole(engine, action, call, values, trx);
      await checkRelations(engine, model, values, trx);
      Object.assign(values, await staging.place(model, files, { ...current, ...values }));
      const stored = await storedValues(engine, model, values);
      if (model.hasColumn('updatedAt')) stored.updatedAt = nextVersion(current);
      const id = Number(current.id);
      await checkUnique(engine, model, stored, trx, id);
      if (Object.keys(stored).length) await trx.updateTable(model.table).set(stored).where('id', '=', id).execute();
      if ([...model.secrets].some((f) => f in values)) await revokeIfAccount(engine, model, trx, id);
      await staging.apply(trx);
      return readOne(engine, model, id, trx);
    }));
    if (secretChanged) endSessionsIfAccount(engine, model, Number(saved?.id));
    return saved;
  };
}

function keyValidator(model: EntityModel, key: string[]) {
  return objectValidator(pick(model.props, key), key);
}

function destroyHandler(engine: Engine, model: EntityModel, action: ActionDecl): ActionHandler {
  const key = keyOf(action);
  const validate = keyValidator(model, key);
  return async (call) => {
    coerceAll(call.input, model.props, call.source);
    check(validate, call.input);
    if (action.before) await beforeDestroy[action.before](await findByKey(engine, model, key, call.input, engine.db), engine);
    const result = await withFiles(engine, (staging) => write(engine, call, async (trx) => {
      const current = await findByKey(engine, model, key, call.input, trx);
      refuse(action, current);
      const id = Number(current.id);
      await staging.remove(model, current);
      await trx.deleteFrom(model.table).where('id', '=', id).execute();
      await revokeIfAccount(engine, model, trx, id);
      return { id };
    }));
    endSessionsIfAccount(engine, model, result.id);
    return result;
  };
}

function toggleHandler(engine: Engine, model: EntityModel, action: ActionDecl): ActionHandler {
  const key = keyOf(action);
  const validate = keyValidator(model, key);
  const field = action.field!;
  return async (call) => {
    const version = takeVersion(model, call.input);
    coerceAll(call.input, model.props, call.source);
    check(validate, call.input);
    return write(engine, call, async (trx) => {
      const current = await findByKey(engine, model, key, call.input, trx);
      refuse(action, current);
      await checkVersion(engine, model, current, version, trx);
      const id = Number(current.id);
      const stored: Record<string, unknown> = { [field]: engine.caps.toDbBoolean(!current[field]) };
      if (model.hasColumn('updatedAt')) stored.updatedAt = nextVersion(current);
      await trx.updateTable(model.table).set(stored).where('id', '=', id).execute();
      return readOne(engine, model, id, trx);
    });
  };
}

function destroyAllHandler(engine: Engine, model: EntityModel): ActionHandler {
  const validate = objectValidator({}, []);
  return async (call) => {
    check(validate, call.input);
    // Rows other records still use (onDelete: restrict) stay, and the answer names them.
    return write(engine, call, (trx) => deleteUnreferenced(engine, model, trx, trx.selectFrom(`${model.table} as t`).select('t.id')));
  };
}

interface FilterParam {
  param: string;
  decl: FilterDecl;
  ref: string;
  schema: FieldSchema;
  /** A contains filter's condition through its trigram index, when it has one here (server/db/text-search.ts). */
  indexed?: (value: string) => unknown;
}

function filterParams(engine: Engine, model: EntityModel): FilterParam[] {
  return (model.manifest.list?.filters ?? []).map((decl) => {
    const { ref, kind } = columnRef(engine, model, decl.field);
    const own = decl.field.includes('.') ? undefined : model.props[decl.field];
    const base: FieldSchema = own ?? { type: kind === 'integer' ? 'integer' : kind === 'boolean' ? 'boolean' : 'string' };
    // contains/prefix compare text; eq compares a value of the field's own type.
    const schema: FieldSchema =
      decl.op === 'eq'
        ? JSON.parse(JSON.stringify({ type: base.type, enum: base.enum, format: base.format, maxLength: 200, minimum: base.minimum, maximum: base.maximum }))
        : { type: 'string', maxLength: 200 };
    const indexed = decl.op === 'contains' ? (value: string) => trigramCondition(engine.caps, model, decl.field, value) : undefined;
    return { param: decl.param ?? decl.field, decl, ref, schema, indexed };
  });
}

/** Reads the filter parameters (empty ones ignored) into WHERE conditions on the query. */
function applyFilters(engine: Engine, filters: FilterParam[], input: Record<string, unknown>, query: any): { query: any; used: number } {
  let used = 0;
  for (const f of filters) {
    const value = input[f.param];
    if (value === undefined || value === null || value === '') continue;
    used++;
    if (f.decl.op === 'eq') {
      query = query.where(f.ref, '=', toDb(engine, fieldKind(f.schema), value));
      continue;
    }
    const indexed = f.indexed?.(String(value));
    if (indexed) {
      query = query.where(indexed);
      continue;
    }
    const escaped = String(value).replace(/[\\%_]/g, (c) => `\\${c}`);
    const pattern = f.decl.op === 'contains' ? `%${escaped}%` : `${escaped}%`;
    query = query.where(sql`${sql.ref(f.ref)} ${sql.raw(engine.caps.likeInsensitive)} ${pattern} escape '\\'`);
  }
  return { query, used };
}

function filterSchemaProps(filters: FilterParam[]) {
  const props: Record<string, FieldSchema> = {};
  // An empty value means "no filter", so '' is accepted besides a value of the field's type.
  for (const f of filters) props[f.param] = f.decl.required ? { title: f.decl.label ?? f.param, ...f.schema } : { title: f.decl.label ?? f.param, anyOf: [f.schema, { const: '' }] };
  return props;
}

function coerceFilters(filters: FilterParam[], input: Record<string, unknown>, source: InputSource) {
  for (const f of filters) {
    if (f.param in input && input[f.param] !== '') input[f.param] = coerce(input[f.param], f.schema, f.param, source !== 'json');
  }
}

/** A required filter on a relation's field names the record the list belongs to: one that does not exist is a 404. */
async function requireScopes(engine: Engine, model: EntityModel, filters: FilterParam[], input: Record<string, unknown>) {
  for (const f of filters) {
    const relation = f.decl.required && (model.manifest.relations ?? []).find((r) => r.field === f.decl.field);
    if (!relation) continue;
    const target = engine.models.get(relation.entity)!;
    const id = input[f.param] as number;
    // An id past the integer column's range names no row (and PostgreSQL would refuse the comparison).
    const found = id <= 2_147_483_647 && (await engine.db.selectFrom(target.table).select('id').where('id', '=', id).executeTakeFirst());
    if (!found) throw notFound(`No ${relation.entity} with id ${String(input[f.param])}`);
  }
}

function listHandler(engine: Engine, model: EntityModel): ActionHandler {
  const list = model.manifest.list ?? {};
  const filters = filterParams(engine, model);
  const sortable = list.sortable ?? [];
  const validate = ajv.compile({
    type: 'object',
    additionalProperties: false,
    properties: {
      page: { type: 'integer', minimum: 1, maximum: 1_000_000 },
      pageSize: { type: 'integer', minimum: 1, maximum: 1000 },
      sortBy: { enum: ['none', '', ...sortable] },
      sortOrder: { enum: ['asc', 'desc', ''] },
      ...filterSchemaProps(filters),
    },
    required: filters.filter((f) => f.decl.required).map((f) => f.param),
  });
  const pagingSchema: Record<string, FieldSchema> = { page: { type: 'integer' }, pageSize: { type: 'integer' } };
  return async (call) => {
    const input = call.input;
    coerceAll(input, pagingSchema, call.source);
    coerceFilters(filters, input, call.source);
    check(validate, input);
    await requireScopes(engine, model, filters, input);
    const page = (input.page as number | undefined) ?? 1;
    const pageSize = (input.pageSize as number | undefined) ?? list.defaultPageSize ?? 20;
    let rowsQuery = applyFilters(engine, filters, input, selectRows(engine, model)).query;
    const sortBy = input.sortBy as string | undefined;
    const order = sortBy && sortBy !== 'none' ? { field: sortBy, direction: input.sortOrder === 'desc' ? 'desc' : 'asc' } : list.defaultOrder;
    const direction = order?.direction ?? 'asc';
    if (order) rowsQuery = rowsQuery.orderBy(columnRef(engine, model, order.field).ref, direction);
    // id breaks ties in the same direction, so one index (column, id) serves the whole order.
    if (order?.field !== 'id') rowsQuery = rowsQuery.orderBy('t.id', direction);
    rowsQuery = rowsQuery.limit(pageSize).offset((page - 1) * pageSize);
    const rows = await readRows<Record<string, unknown>>(engine, rowsQuery);
    const active = filters.filter((f) => input[f.param] !== undefined && input[f.param] !== null && input[f.param] !== '');
    const counted = await countList(engine, model, {
      where: (q) => applyFilters(engine, active, input, q).query,
      relations: relationsOf(active.map((f) => f.ref)),
      key: JSON.stringify(active.map((f) => [f.param, input[f.param]])),
      offset: (page - 1) * pageSize,
      pageSize,
      rowsOnPage: rows.length,
    });
    return { rows: rows.map((row: Record<string, unknown>) => present(engine, model, row)), ...counted };
  };
}

function destroyByFilterHandler(engine: Engine, model: EntityModel): ActionHandler {
  const filters = filterParams(engine, model);
  const validate = ajv.compile({ type: 'object', additionalProperties: false, properties: filterSchemaProps(filters) });
  return async (call) => {
    coerceFilters(filters, call.input, call.source);
    check(validate, call.input);
    const matching = (db: Kysely<any>) =>
      applyFilters(engine, filters, call.input, joinRelations(engine, model, db.selectFrom(`${model.table} as t`)).select('t.id'));
    if (matching(engine.db).used === 0) throw badRequest('Fill at least one filter');
    // The same connection as the transaction: SQLite has only one, so a second would wait forever.
    return write(engine, call, (trx) => deleteUnreferenced(engine, model, trx, matching(trx).query));
  };
}

function customHandler(engine: Engine, action: ActionDecl): ActionHandler {
  const handler = customHandlers[action.handler!];
  if (!handler) throw new Error(`No server/actions handler named "${action.handler}"`);
  const inputSchema = (action.inputSchema ?? { type: 'object', properties: {} }) as { properties?: Record<string, FieldSchema> };
  const validate = ajv.compile({ additionalProperties: false, ...inputSchema });
  return async (call) => {
    coerceAll(call.input, inputSchema.properties ?? {}, call.source);
    check(validate, call.input);
    const ctx = { engine, db: engine.db, input: call.input, actor: call.actor, client: call.client, path: call.path };
    const prepared = handler.prepare ? await handler.prepare(ctx) : undefined;
    const run = (db: Kysely<any>) => handler.run({ ...ctx, db, prepared });
    if (!handler.write) return run(engine.db);
    try {
      return await write(engine, call, run, handler.touches);
    } catch (error) {
      if (handler.undo) await handler.undo({ ...ctx, prepared }).catch((e: Error) => console.error(`undo of ${action.path} failed: ${e.message}`));
      throw error;
    }
  };
}
