// The stable codes of every failure answer ({result: false, message, code}): a client branches on `code`, never
// on the wording of `message`. The list is the API contract (docs/manifests.md, README, /openapi.json).

export const ERROR_CODES = {
  ERR_VALIDATION: { status: 400, text: 'A value is refused (wrong type, format, range, not an accepted field, no such related record); `fields` lists every bad field' },
  ERR_MALFORMED: { status: 400, text: 'The request cannot be read: body not JSON or not an object, a malformed multipart form' },
  ERR_AUTH: { status: 401, text: 'No valid session token (or a wrong e-mail or password, or a wrong webhook token)' },
  ERR_ROLE: { status: 403, text: "The caller's role may not use this call" },
  ERR_HOST: { status: 403, text: 'The panel is not served on this host' },
  ERR_NOT_FOUND: { status: 404, text: 'The record, file or named thing does not exist' },
  ERR_NO_ROUTE: { status: 404, text: 'No call at this method and path' },
  ERR_METHOD: { status: 405, text: 'HEAD on a call that writes' },
  ERR_CONFLICT: { status: 409, text: 'Lost update: the record changed since it was read; `stale` carries who, when and the record as it is now' },
  ERR_UNIQUE: { status: 409, text: 'A unique value is already taken; `fields` names the fields of the constraint' },
  ERR_REFERENCED: { status: 409, text: 'The record is still used by other records' },
  ERR_REFUSED: { status: 409, text: "The record's state refuses the call (a locked record, a setting not made yet)" },
  ERR_TOO_LARGE: { status: 413, text: 'The body, a field or a file is larger than the call accepts' },
  ERR_MEDIA_TYPE: { status: 415, text: 'The body is not of the media type the call takes' },
  ERR_RATE_LIMIT: { status: 429, text: 'Too many attempts or requests; Retry-After says when to try again' },
  ERR_INTERNAL: { status: 500, text: 'An unexpected server fault (logged)' },
  ERR_UNAVAILABLE: { status: 503, text: 'The database, the disk or GitLab cannot serve now; Retry-After says when to try again' },
} as const satisfies Record<string, { status: number; text: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The code of a failure that names none: the usual one of its status. */
export function defaultCode(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'ERR_VALIDATION';
    case 401:
      return 'ERR_AUTH';
    case 403:
      return 'ERR_ROLE';
    case 404:
      return 'ERR_NOT_FOUND';
    case 405:
      return 'ERR_METHOD';
    case 409:
      return 'ERR_CONFLICT';
    case 413:
      return 'ERR_TOO_LARGE';
    case 415:
      return 'ERR_MEDIA_TYPE';
    case 429:
      return 'ERR_RATE_LIMIT';
    case 503:
      return 'ERR_UNAVAILABLE';
    default:
      return status >= 500 ? 'ERR_INTERNAL' : 'ERR_VALIDATION';
  }
}

/** One bad field of an input error: its name in the request and the sentence about it. */
export interface FieldProblem {
  field: string;
  message: string;
  /** The problem's stable code (PROBLEM_TEXT of kernel/manifest/error-text.ts), for a client wording it in its language. */
  problem?: string;
  /** The values the problem's sentence names (a limit, a format, the fields of a combination). */
  params?: Record<string, unknown>;
  /** The path to the bad value below `field` (list positions, inner fields), when it is inside the field. */
  path?: string[];
}
