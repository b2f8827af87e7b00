// The types of the server's name-keyed registries (server/actions/index.ts), in a file of their own so that
// the handlers importing them do not import the registry that imports the handlers.
import type { Kysely } from 'kysely';
import type { Actor } from '../plugins/audit.ts';
import type { Engine } from '../crud/context.ts';

export interface ActionContext {
  engine: Engine;
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
  engine: Engine;
  db: Kysely<any>;
  mode: 'create' | 'update';
}

/** Checks named by an action's `check`: the problems of a record about to be stored (empty when none). */
export type RecordCheck = (record: Record<string, unknown>, ctx: CheckContext) => string[] | Promise<string[]>;

/**
 * Hooks named by a destroy action's `before`: they run on the stored record before the delete's transaction
 * opens (so a call to another service holds no database lock); a failure refuses the call and keeps the record.
 */
export type BeforeDestroy = (record: Record<string, unknown>, engine: Engine) => Promise<void>;

export type ValueSource = (ctx: Omit<ActionContext, 'input'>) => Promise<unknown>;
