// A JSON body kept as its bytes (server/plugins/json-body.ts makes it), on the ground floor so the engine's
// handler types can name it.
/** The JSON body of a route with `config: { jsonBytes: true }`, undecoded, for the handler to read off the event loop. */
export class JsonBytes {
  constructor(
    readonly bytes: Buffer,
    /** The error a small body `text` is refused with: a body found bad elsewhere is refused in the same words. */
    readonly refusal: (text: string) => Error,
    /** Aborts when the client goes away before its answer (the IP import's Cancel): a long write can then roll back. */
    readonly clientGone?: AbortSignal,
  ) {}
}
