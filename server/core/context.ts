// The services the server's parts are made of, as one catalogue (`Engine`): no part receives the whole of it. Each
// function names what it uses as a `Pick<Engine, ...>` beside it, and each plugin builds its own narrow context from
// the decorations of the plugins it depends on.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Manifest } from '../../kernel/manifest/types.ts';
import type { Capabilities } from '../db/database.ts';
import type { DatabaseHealth } from '../db/guard.ts';
import type { Actor, AuditLog } from './audit-log.ts';
import type { LiveHub } from './live-hub.ts';
import type { ChangeFeed } from './changes.ts';
import type { Reads } from '../db/read-pool.ts';
import type { JsonBytes } from './json-bytes.ts';
import type { EntityModel } from '../model/model.ts';

export interface Engine {
  db: Kysely<any>;
  caps: Capabilities;
  /** Whether the database is out: what a connection of a handler's own reports to (server/db/large-write.ts). */
  health: DatabaseHealth;
  /** The server's log (Fastify's; silent unless LOG_REQUESTS=1): what a handler notes of its work. */
  log: FastifyBaseLogger;
  manifests: Manifest[];
  /** Models of the entities that have a table, by entity name. */
  models: Map<string, EntityModel>;
  /** The entity that `provides: accounts` (the users who log in). */
  accounts: EntityModel;
  audit: AuditLog;
  live: LiveHub;
  /** Committed writes, by entity: what caches of the tables listen to. */
  changes: ChangeFeed;
  /** DATA_DIR: uploaded files and the build tree live under it. */
  dataDir: string;
  /** How long a session lives: without a call (idle) and at most (lifetime) after its login. */
  sessions: { idleMs: number; lifetimeMs: number };
  /** The named custom handlers, record checks, before-destroy hooks and value sources, and what they receive (server/crud/registry.ts). */
  actions: ActionRegistry;
  /** Rows a list counts exactly before answering a capped count (LIST_COUNT_LIMIT, server/crud/list-query.ts). */
  listCountLimit?: number;
  /** List reads: worker threads on SQLite, the pool on PostgreSQL (server/db/read-pool.ts); absent = engine.db. */
  reads?: Reads;
}

/**
 * What a custom handler, record check, before-destroy hook and value source may use of the server: the same object
 * for all of them (server/crud/registry.ts makes it), so what is kept per app can be kept under it.
 */
export type HandlerServices = Pick<Engine, 'db' | 'caps' | 'health' | 'log' | 'manifests' | 'models' | 'changes' | 'live' | 'dataDir'>;

/** The named handlers, checks, hooks and value sources the server knows, by name (server/crud/registry.ts fills them). */
export interface ServerActions {
  handlers: Record<string, CustomHandler>;
  checks: Record<string, RecordCheck>;
  beforeDestroy: Record<string, BeforeDestroy>;
  valueSources: Record<string, ValueSource>;
}

// The types of the server's name-keyed registries live beside the services they receive, so that the registering
// folders (server/actions, server/gitlab) and the crud routes that call them import neither each other.
export interface ActionContext {
  engine: HandlerServices;
  /** The connection to use: the write's transaction when the handler writes. */
  db: Kysely<any>;
  input: Record<string, unknown>;
  actor: Actor;
  /** What the handler's `prepare` returned. */
  prepared?: unknown;
  /** The caller's address (request.ip) and the backend's origin as the caller reached it. */
  client?: { ip: string; origin: string };
  /** The call's path, e.g. /v1/combination/get. */
  path?: string;
}

export interface CustomHandler {
  /** Writes run in a transaction with their audit row. */
  write?: boolean;
  /** Entities besides the declaring manifest's that the handler writes, announced on the change feed. */
  touches?: string[];
  /** A body limit above the server's 1 MiB default, for calls that carry a whole file's worth of data. */
  bodyLimit?: number;
  /**
   * Work done before the write's transaction opens, such as a call to another service that must not hold the
   * database meanwhile; its result reaches `run` (and `undo`) as `ctx.prepared`.
   */
  prepare?(ctx: ActionContext): Promise<unknown>;
  /**
   * Reads the call's JSON body from its bytes instead of the event loop parsing it (a body of a million entries):
   * answers the input, which the input schema then checks as usual, and an end for what it started (called once the
   * call is answered). The route then receives the body undecoded (server/plugins/json-body.ts).
   */
  readBody?(body: JsonBytes): Promise<{ input: unknown; end(): Promise<void> }>;
  /**
   * Runs the write's transaction, `transact`, on a connection of the handler's choosing (given to `transact`; none:
   * the server's own), e.g. a worker thread's for a write too large for the event loop (server/db/large-write.ts).
   */
  writeOn?<T>(ctx: ActionContext, transact: (db?: Kysely<any>) => Promise<T>): Promise<T>;
  /** Takes back what `prepare` did when the write then fails; its own failure is reported, never thrown. */
  undo?(ctx: ActionContext): Promise<void>;
  /**
   * A device handler: it needs no actor, writes no users-log row and may serve only a `public` action (and a
   * public action only such a handler); the engine checks both at start.
   */
  public?: true;
  run(ctx: ActionContext): Promise<unknown>;
}

/** What a record check may read: the write's transaction, and whether the record is added or edited. */
export interface CheckContext {
  engine: HandlerServices;
  db: Kysely<any>;
  mode: 'create' | 'update';
}

/** Checks named by an action's `check`: the problems of a record about to be stored (empty when none). */
export type RecordCheck = (record: Record<string, unknown>, ctx: CheckContext) => string[] | Promise<string[]>;

/**
 * Hooks named by a destroy action's `before`: they run on the stored record before the delete's transaction
 * opens (so a call to another service holds no database lock); a failure refuses the call and keeps the record.
 */
export type BeforeDestroy = (record: Record<string, unknown>, engine: HandlerServices) => Promise<void>;

export type ValueSource = (ctx: Omit<ActionContext, 'input'>) => Promise<unknown>;

/**
 * Where the plugins that bring named handlers register them (`app.serverActions`, server/crud/registry.ts), before
 * the crud routes read them. A name registered twice stops the start.
 */
export interface ActionRegistry {
  /** What every registered handler, check, hook and value source receives as `engine`. */
  services: HandlerServices;
  handler(name: string, handler: CustomHandler): void;
  check(name: string, check: RecordCheck): void;
  beforeDestroy(name: string, hook: BeforeDestroy): void;
  valueSource(name: string, source: ValueSource): void;
  /** Several at once, e.g. one folder's tables. */
  add(actions: Partial<ServerActions>): void;
  /** What is registered so far. */
  registered: ServerActions;
}

export const TOKENS_TABLE = 'auth_tokens';

/** Ends every session of an account: on logout-everywhere, password change and account deletion. */
export async function revokeTokensOf(trx: Kysely<any>, userId: number): Promise<void> {
  await trx.deleteFrom(TOKENS_TABLE).where('userId', '=', userId).execute();
}
