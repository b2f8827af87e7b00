/** The one failure type of every call: `message` is the server's text, `status` 0 means no answer at all. */
export class HttpError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly body?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The notice text of a failed write (SPEC 4): `Error {message}`, or `Network Error` when there is no message. */
export function writeErrorText(error: unknown): string {
  if (error instanceof HttpError && error.status !== 0 && error.message) return `Error ${error.message}`;
  return 'Network Error';
}
