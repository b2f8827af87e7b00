// The one error catalogue of the server: every failure leaves as {result: false, message, code} with its status
// (codes: server/error-codes.ts); an input error also lists every bad field in `fields`.
import type { FastifyError, FastifyInstance } from 'fastify';
import { defaultCode, type ErrorCode, type FieldProblem } from './error-codes.ts';

export type { ErrorCode, FieldProblem } from './error-codes.ts';

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Response headers the failure carries (Retry-After of a 429). */
    readonly headers?: Record<string, string>,
    /** Fields the envelope carries besides result and message (`stale` of a stale edit). */
    readonly body?: Record<string, unknown>,
    /** The stable code of the failure; by default the usual one of its status. */
    readonly code: ErrorCode = defaultCode(status),
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** A refused value of one field: the field is named in `fields` so a form can mark it. */
export const fieldError = (field: string, message: string, status = 400, code?: ErrorCode) =>
  new AppError(status, message, undefined, { fields: [{ field, message }] }, code);
/** The failure naming `field` as the bad one, unless it names its fields already (a file check knows only the title). */
export const onField = (error: unknown, field: string): unknown =>
  error instanceof AppError && error.status < 500 && !error.body?.fields
    ? new AppError(error.status, error.message, error.headers, { ...error.body, fields: [{ field, message: error.message }] }, error.code)
    : error;
/** Refused values of several fields at once; the message is the first one's. */
export const fieldErrors = (problems: FieldProblem[], status = 400, code?: ErrorCode) =>
  new AppError(status, problems[0].message, undefined, { fields: problems }, code);
export const badRequest = (message: string) => new AppError(400, message);
/** A request that cannot be read at all (not JSON, not an object, a broken multipart form). */
export const malformed = (message: string) => new AppError(400, message, undefined, undefined, 'ERR_MALFORMED');
export const unauthorized = (message = 'Authorization required') => new AppError(401, message);
export const forbidden = (message = 'Your role may not use this call') => new AppError(403, message);
export const notFound = (message = 'Not found') => new AppError(404, message);
export const conflict = (message: string, code: ErrorCode = 'ERR_CONFLICT') => new AppError(409, message, undefined, undefined, code);
/** What a client needs to offer a reload after its edit was refused as stale. */
export interface StaleDetails {
  changedBy: string | null;
  changedAt: string | null;
  /** The record as it is now. */
  record: Record<string, unknown>;
}
export const staleEdit = (message: string, stale: StaleDetails) => new AppError(409, message, undefined, { stale });
/** A 429 always says when to come back (Retry-After, in seconds). */
export const tooManyRequests = (retryAfterSeconds: number, message = `Too many attempts, try again in ${retryAfterSeconds} s`) =>
  new AppError(429, message, { 'retry-after': String(retryAfterSeconds) });

/** The database or the disk cannot serve now (gone, busy, full): a 503 whose Retry-After says when to try again. */
export class UnavailableError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, message, undefined, undefined, 'ERR_UNAVAILABLE');
    this.name = 'UnavailableError';
  }
}

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
/** A file write that failed for lack of space is the operator's problem to fix, not a fault of the request. */
export const diskFull = (error: unknown) =>
  DISK_FULL_CODES.has((error as NodeJS.ErrnoException | null)?.code ?? '')
    ? new UnavailableError("The server's disk is full; nothing can be saved until space is freed", 60)
    : undefined;

/** Installs the error and not-found handlers that turn every failure into the envelope. */
export function installErrorHandlers(app: FastifyInstance, notFoundFallback?: (url: string) => boolean): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const known = error instanceof AppError ? error : diskFull(error);
    if (known) {
      if (known.headers) reply.headers(known.headers);
      if (known instanceof UnavailableError) reply.header('retry-after', String(known.retryAfterSeconds));
      return reply.status(known.status).send({ ...known.body, result: false, message: known.message, code: known.code });
    }
    const status = (error as FastifyError).statusCode;
    if ((error as FastifyError).validation) {
      return reply.status(400).send({ result: false, message: error.message, code: 'ERR_VALIDATION' });
    }
    // Fastify's own client faults: bad JSON, __proto__ keys, empty body, too large, wrong media type.
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.status(status).send({ result: false, message: error.message, code: status === 400 ? 'ERR_MALFORMED' : defaultCode(status) });
    }
    request.log.error({ err: error }, 'unhandled server fault');
    return reply.status(500).send({ result: false, message: 'Internal server error', code: 'ERR_INTERNAL' });
  });
  app.setNotFoundHandler((request, reply) => {
    if (notFoundFallback?.(request.url) && request.method === 'GET') {
      return reply.sendFile('index.html');
    }
    return reply.status(404).send({ result: false, message: `No route ${request.method} ${request.url.split('?')[0]}`, code: 'ERR_NO_ROUTE' });
  });
}
