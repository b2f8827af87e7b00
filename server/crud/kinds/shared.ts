// What every action kind's handler shares: the call it serves, the write with its audit row, and the steps
// of reading and checking a record's input.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ActionDecl, FieldSchema, Role } from '../../../kernel/manifest/types.ts';
import { AppError, badRequest, conflict, fieldErrors, notFound, type FieldProblem } from '../../errors.ts';
import { hashPassword } from '../../plugins/passwords.ts';
import type { Actor } from '../../core/audit-log.ts';
import { revokeTokensOf, type Engine } from '../../core/context.ts';
import { coerce } from '../../core/input.ts';
import type { InputSource } from '../../contract/route-schema.ts';
import { fieldRefusal } from '../../../kernel/manifest/error-text.ts';
import { matches } from '../../../kernel/rules/condition.ts';
import { auditRows, type WriteRecord } from '../../audit/diff.ts';
import { isEmailField, secretColumn, type EntityModel } from '../../model/model.ts';
import { present, selectRows, toDb } from '../../core/rows.ts';

export interface CallContext {
  /** The input as the route's schema checked it (server/crud/kinds/input-rules.ts). */
  input: Record<string, unknown>;
  source: InputSource;
  /** A form's stored files, taken from it by their rules (server/crud/files.ts) before its fields were checked. */
  files?: Map<string, Buffer>;
  actor: Actor & { role: Role };
  path: string;
  /** The entity of the manifest that declares the call; its committed writes are announced for it. */
  entity: string;
  /** The caller's address and the backend's origin, for device calls. */
  client?: { ip: string; origin: string };
}

export type ActionHandler = (call: CallContext) => Promise<unknown>;


/** What the action kinds use of the server, all of them together (each kind takes its own part). */
export type KindContext = Pick<Engine, 'accounts' | 'actions' | 'audit' | 'caps' | 'changes' | 'dataDir' | 'db' | 'live' | 'models'>;

/** Builds the handler of one action kind for a declared action on a table. */
export type KindBuilder = (engine: KindContext, model: EntityModel, action: ActionDecl) => ActionHandler;

const derive = (fn: 'md5' | 'sha256', value: unknown) =>
  value === null || value === undefined ? null : createHash(fn).update(String(value)).digest('hex');

/** The manifest's `check` on a record about to be stored, in the write's transaction: its problems are one 400. */
export async function runCheck(engine: Pick<Engine, 'actions'>, action: ActionDecl, record: Record<string, unknown>, db: Kysely<any>, mode: 'create' | 'update') {
  const problems = action.check ? await engine.actions.registered.checks[action.check](record, { engine: engine.actions.services, db, mode }) : [];
  if (problems.length) throw badRequest(problems.join('; '));
}

export function coerceAll(input: Record<string, unknown>, props: Record<string, FieldSchema>, source: InputSource) {
  for (const [field, value] of Object.entries(input)) {
    if (props[field]) input[field] = coerce(value, props[field], field, source !== 'json');
  }
}

/** Refuses fields the caller may never set, with a message better than "not accepted". */
export function refuseReadOnly(model: EntityModel, input: Record<string, unknown>, allowed: Set<string>) {
  for (const field of Object.keys(input)) {
    if (allowed.has(field)) continue;
    const schema = model.props[field];
    if (schema?.readOnly || schema?.['x-derived']) throw fieldErrors([fieldRefusal(field, 'readOnly', {}, model.props)]);
    if (schema) throw fieldErrors([fieldRefusal(field, 'notByThisCall', {}, model.props)]);
  }
}

export async function applyForRole(engine: Pick<Engine, 'actions'>, action: ActionDecl, call: CallContext, values: Record<string, unknown>, trx: Kysely<any>) {
  for (const [field, source] of Object.entries(action.forRole?.[call.actor.role] ?? {})) {
    values[field] = await engine.actions.registered.valueSources[source]({ engine: engine.actions.services, db: trx, actor: call.actor });
  }
}

/** Stored values of the given fields: secrets hashed, derived fields computed, kinds converted. */
export async function storedValues(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, values: Record<string, unknown>): Promise<Record<string, unknown>> {
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

/** Every related record the values name must exist; all the missing ones are named in one 400. */
export async function checkRelations(engine: Pick<Engine, 'models'>, model: EntityModel, values: Record<string, unknown>, trx: Kysely<any>) {
  const problems: FieldProblem[] = [];
  for (const relation of model.manifest.relations ?? []) {
    const value = values[relation.field];
    if (value === null || value === undefined) continue;
    const target = engine.models.get(relation.entity)!;
    const found = await trx.selectFrom(target.table).select('id').where('id', '=', value).executeTakeFirst();
    if (!found) problems.push(fieldRefusal(relation.field, 'noRecord', { entity: relation.entity, id: value }, model.props));
  }
  if (problems.length) throw fieldErrors(problems);
}

/** Every unique constraint the values would break, in one 409 naming the fields of each. */
export async function checkUnique(engine: Pick<Engine, never>, model: EntityModel, stored: Record<string, unknown>, trx: Kysely<any>, exceptId?: number) {
  const problems: FieldProblem[] = [];
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
      for (const f of fields) problems.push(fieldRefusal(f, fields.length === 1 ? 'taken' : 'takenTogether', fields.length === 1 ? {} : { fields }, model.props));
    }
  }
  if (problems.length) throw fieldErrors(problems, 409, 'ERR_UNIQUE');
}

/**
 * Runs a write and its audit row in one transaction (on `db`, by default the server's connection); constraint
 * violations become 409. After the commit the change feed hears of the call's entity and of every entity in
 * `touches` (what a custom handler also writes).
 */
export async function write<T>(
  engine: Pick<Engine, 'audit' | 'caps' | 'changes' | 'db' | 'models'>,
  call: CallContext,
  body: (trx: Kysely<any>, record: WriteRecord) => Promise<T>,
  touches: string[] = [],
  db: Kysely<any> = engine.db,
): Promise<T> {
  try {
    const result = await db.transaction().execute(async (trx) => {
      const record: WriteRecord = {};
      const out = await body(trx, record);
      for (const row of auditRows(engine.models.get(call.entity), call.entity, record, recordIdOf(out), out)) await engine.audit.write(trx, call.actor, call.path, row);
      return out;
    });
    const id = recordIdOf(result);
    const at = new Date().toISOString();
    for (const entity of new Set([call.entity, ...touches])) {
      engine.changes.emit({ entity, path: call.path, ids: entity === call.entity && id !== null ? [id] : undefined, by: call.actor.email, at });
    }
    return result;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (engine.caps.isUniqueViolation(error)) throw conflict('A unique value is already taken', 'ERR_UNIQUE');
    if (engine.caps.isForeignKeyViolation(error)) throw conflict('The record is still referenced by other records', 'ERR_REFERENCED');
    throw error;
  }
}

/** The id of the record a write answered with (create, update, toggle, destroy), for its audit row. */
export function recordIdOf(out: unknown): number | null {
  const id = (out as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

export function keyOf(action: ActionDecl) {
  return action.key ?? ['id'];
}

/**
 * The record the key names, or 404. Inside a write's transaction its row stays locked until the write ends, so a
 * concurrent write of it waits and then reads it as committed: what is checked here (its version) is what is written over.
 */
export async function findByKey(engine: Pick<Engine, 'caps' | 'db' | 'models'>, model: EntityModel, key: string[], input: Record<string, unknown>, trx: Kysely<any>) {
  let query = engine.caps.lockRows(selectRows(engine, model, trx), 't');
  for (const f of key) query = query.where(`t.${f}`, '=', toDb(engine, model.kindOf(f), input[f]));
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(`No ${model.entity} with ${key.map((f) => `${f} ${String(input[f])}`).join(' and ')}`);
  return present(engine, model, row);
}

export function refuse(action: ActionDecl, record: Record<string, unknown>) {
  if (action.refuseWhen && matches(record, action.refuseWhen)) throw conflict(action.refuseWhen.message, 'ERR_REFUSED');
}

export async function revokeIfAccount(engine: Pick<Engine, 'accounts'>, model: EntityModel, trx: Kysely<any>, id: number) {
  if (model === engine.accounts) await revokeTokensOf(trx, id);
}

/** After the revoking write committed: the account's live sockets are cut at once. */
export function endSessionsIfAccount(engine: Pick<Engine, 'accounts' | 'live'>, model: EntityModel, id: number) {
  if (model === engine.accounts) engine.live.endSessions({ userId: id });
}
