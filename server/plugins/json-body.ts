// JSON bodies without holding the event loop: one JSON.parse of the IP import's 37 MiB takes 0.3 s on an idle
// machine (seconds on a busy one), and no other request is served meanwhile. A body above LARGE_BODY is
// parsed in slices instead: its top-level array or object is cut at its top-level commas, runs of members
// of about SLICE characters are parsed together by Fastify's own JSON parser (same prototype-poisoning
// refusals, same 400 for bad JSON), and the work pauses for the event loop between slices. Smaller bodies
// are parsed as before, at once. The body is decoded chunk by chunk as it arrives (Fastify's own reading joins
// all the chunks and decodes them at once: 37 MiB took 80-100 ms in one piece), with Fastify's limits and refusals.
// A route whose config says `jsonBytes` (the IP import: a million entries as objects meant long garbage-collection
// pauses) gets its body undecoded instead, as a JsonBytes, and reads it off the event loop itself.
// On every path a body nested too deep or repeating a key in one object is refused (server/json-shape.ts), small and
// sliced bodies here, a JsonBytes on its reader's thread (which refuses through `refusal`, as for bad JSON).
import { StringDecoder } from 'node:string_decoder';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { malformed } from '../errors.ts';
import { JsonBytes } from '../core/json-bytes.ts';
import { describeShape, MAX_JSON_DEPTH, scanJsonShape, type ShapeFinding } from '../json-shape.ts';

/** Bodies up to this size are parsed at once (a few milliseconds at most). */

export const LARGE_BODY = 1024 * 1024;
/**
 * The largest JSON body a route may parse on the event loop, in slices (the GitLab webhook's): the objects of a larger
 * one cost garbage-collection pauses of 0.1 s and more however it is parsed, so a route that takes more (the IP import)
 * reads its bytes off the loop (`jsonBytes`). tests/server/json-body.test.ts holds every route of the server to it.
 */
export const LOOP_BODY_LIMIT = 8 * 1024 * 1024;
/** Characters handled between two pauses for the event loop (about 2 ms of parsing). */
const SLICE = 256 * 1024;

type Parse = (text: string) => unknown;

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

class BadJson extends Error {}

const refuse = (finding: ShapeFinding) => malformed(`The JSON body ${describeShape(finding)}`);
/** The refusal of text nested too deep or repeating a key (`outer`: containers around it), else undefined. */
const shapeRefusal = (text: string, outer = 0) => {
  const finding = scanJsonShape(text, MAX_JSON_DEPTH, outer);
  return finding && refuse(finding);
};
/** Parses `text` (`outer` containers deep in the body) after refusing it if its shape is refused. */
const checkedParse = (parse: Parse, text: string, outer: number) => {
  const refusal = shapeRefusal(text, outer);
  if (refusal) throw refusal;
  return parse(text);
};

/**
 * Parses `text` like JSON.parse through `parse`, pausing between slices: a value too large for one slice
 * must be an array or an object, whose members are parsed in runs (large members the same way, recursively).
 * Refuses nesting deeper than MAX_JSON_DEPTH and a key repeated in one object (server/json-shape.ts), across runs too.
 * @example await parseInSlices('[1,2,3]', JSON.parse) // [1, 2, 3]
 */
export async function parseInSlices(text: string, parse: Parse, slice = SLICE): Promise<unknown> {
  let spent = 0;
  const spend = async (chars: number) => {
    spent += chars;
    if (spent >= slice) {
      spent = 0;
      await pause();
    }
  };

  /**
   * The ranges between the top-level commas of the container text[open] .. text[close], as their starts and ends
   * (two arrays of numbers: a million small [from, to] arrays only fed the garbage collector).
   */
  const members = async (open: number, close: number): Promise<{ starts: number[]; ends: number[] }> => {
    const starts: number[] = [];
    const ends: number[] = [];
    let depth = 0;
    let inString = false;
    let from = open + 1;
    // Whether the current member holds anything but spaces, and whether some member held nothing: found during
    // the scan, since checking a million ranges afterwards took one uninterrupted 0.1-0.2 s.
    let filled = false;
    let blank = false;
    for (let i = open + 1; i < close; i++) {
      if ((i & 0xffff) === 0) await spend(0x10000);
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++; // backslash: the next character is escaped
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x2c && depth === 0) {
        blank ||= !filled;
        filled = false;
        starts.push(from);
        ends.push(i);
        from = i + 1;
        continue;
      }
      if (!isSpace(c)) filled = true;
      if (c === 0x22) inString = true;
      else if (c === 0x5b || c === 0x7b) depth++;
      else if (c === 0x5d || c === 0x7d) {
        if (--depth < 0) throw new BadJson();
      }
    }
    if (inString || depth !== 0) throw new BadJson();
    starts.push(from);
    ends.push(close);
    // `[]` and `{}` hold no member; otherwise an empty one is a stray comma.
    if (starts.length === 1 && !filled) return { starts: [], ends: [] };
    if (blank || !filled) throw new BadJson();
    return { starts, ends };
  };

  /** Where the string starting at `at` (a quote) ends: the index after its closing quote. */
  const stringEnd = (at: number, end: number) => {
    for (let i = at + 1; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) return i + 1;
    }
    throw new BadJson();
  };

  /** The value at text[start] .. text[end], inside `outer` containers. */
  const value = async (start: number, end: number, outer: number): Promise<unknown> => {
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    const first = text.charCodeAt(start);
    const last = text.charCodeAt(end - 1);
    const isArray = first === 0x5b && last === 0x5d;
    const isObject = first === 0x7b && last === 0x7d;
    if (end - start <= slice || (!isArray && !isObject)) {
      const parsed = checkedParse(parse, text.slice(start, end), outer);
      await spend(end - start);
      return parsed;
    }
    // Before its members are scanned: a large value nested deeper would be scanned again at each level.
    if (outer + 1 > MAX_JSON_DEPTH) throw refuse({ deeperThan: MAX_JSON_DEPTH });
    const { starts, ends } = await members(start, end - 1);
    const out: unknown[] | Record<string, unknown> = isArray ? [] : {};
    // Runs of consecutive members that fit in one slice are parsed together.
    for (let i = 0; i < starts.length; ) {
      let j = i;
      while (j + 1 < starts.length && ends[j + 1] - starts[i] <= slice) j++;
      const [from, to] = [starts[i], ends[j]];
      if (j > i || to - from <= slice) {
        // The run stands in for this container, `outer` containers deep.
        const run = checkedParse(parse, isArray ? `[${text.slice(from, to)}]` : `{${text.slice(from, to)}}`, outer);
        if (isArray) (out as unknown[]).push(...(run as unknown[]));
        else {
          // A key repeated in another run of the same object.
          for (const key of Object.keys(run as object)) if (Object.hasOwn(out, key)) throw refuse({ repeated: key });
          Object.assign(out, run);
        }
        await spend(to - from);
      } else if (isArray) {
        (out as unknown[]).push(await value(from, to, outer + 1));
      } else {
        // One large member: its key alone through the parser (so a forbidden key is refused as usual), then its value.
        let k = from;
        while (isSpace(text.charCodeAt(k))) k++;
        if (text.charCodeAt(k) !== 0x22) throw new BadJson();
        const keyEnd = stringEnd(k, to);
        let colon = keyEnd;
        while (colon < to && isSpace(text.charCodeAt(colon))) colon++;
        if (text.charCodeAt(colon) !== 0x3a) throw new BadJson();
        const key = Object.keys(parse(`{${text.slice(k, keyEnd)}:0}`) as object)[0];
        if (key === undefined) throw new BadJson(); // a key the parser dropped (forbidden, when it removes instead of refusing)
        if (Object.hasOwn(out, key)) throw refuse({ repeated: key });
        const member = await value(colon + 1, to, outer + 1);
        if (key === 'constructor' && member && typeof member === 'object' && 'prototype' in member) parse('{"constructor":{"prototype":{}}}');
        Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
      }
      i = j + 1;
    }
    return out;
  };

  // A byte-order mark is skipped, as the default parser does.
  return value(text.charCodeAt(0) === 0xfeff ? 1 : 0, text.length, 0);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The JSON body reaches the handler as a JsonBytes, undecoded. */
    jsonBytes?: boolean;
  }
}

type Payload = NodeJS.ReadableStream & { receivedEncodedLength?: number };

/** What stops listening to a request's connection once its answer is sent (see clientGoneSignal). */
const stopListening = new WeakMap<FastifyRequest, () => void>();

/** A signal that aborts when the request's connection closes before its answer was sent. */
function clientGoneSignal(request: FastifyRequest): AbortSignal {
  const gone = new AbortController();
  const socket = request.raw.socket;
  if (!socket) return gone.signal;
  const abort = () => gone.abort();
  socket.once('close', abort);
  // Removed after the answer: a keep-alive connection carries many imports, and a listener left on it per call
  // piled up (Node's MaxListenersExceededWarning after ten); a close after the answer changes nothing anyway.
  stopListening.set(request, () => socket.off('close', abort));
  return gone.signal;
}

/**
 * The body as text, as Fastify's `parseAs: 'string'` reads it (the route's bodyLimit, 413 above it whether
 * declared or received, 400 for a Content-Length that does not match), decoding each chunk when it arrives;
 * or as its bytes.
 */
function readText(request: FastifyRequest, payload: Payload): Promise<string>;
function readText(request: FastifyRequest, payload: Payload, bytes: true): Promise<Buffer>;
function readText(request: FastifyRequest, payload: Payload, bytes = false): Promise<string | Buffer> {
  const limit = request.routeOptions.bodyLimit;
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    const chunks: Buffer[] = [];
    // Bytes of a declared length are copied into one buffer as they come: joining 37 MiB at the end took 0.1 s at once.
    const whole = bytes && declared >= 0 ? Buffer.alloc(declared) : undefined;
    let received = 0;
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    function onData(data: Buffer | string) {
      const chunk = typeof data === 'string' ? Buffer.from(data) : data;
      received += chunk.length;
      if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
        stop();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      if (whole && received <= whole.length) chunk.copy(whole, received - chunk.length);
      // Kept as well, for a body that turns out longer than declared (a decoded Content-Encoding).
      if (bytes) chunks.push(chunk);
      else parts.push(decoder.write(chunk));
    }
    function onEnd(error?: Error & { statusCode?: number }) {
      stop();
      if (error) {
        if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
        reject(error);
        return;
      }
      if (!Number.isNaN(declared) && (payload.receivedEncodedLength || received) !== declared) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      if (bytes) return resolve(whole?.length === received ? whole : Buffer.concat(chunks, received));
      parts.push(decoder.end());
      resolve(parts.join(''));
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
}

/** Replaces Fastify's JSON parser with one that parses bodies above LARGE_BODY in slices (same results and refusals). */
export function registerJsonBodies(app: FastifyInstance): void {
  const atOnce = app.getDefaultJsonParser('error', 'error');
  /** Fastify's parser as a function that returns or throws. */
  const parse = (request: FastifyRequest, text: string): unknown => {
    let result: unknown;
    let failure: Error | null = null;
    atOnce(request, text, (error, value) => {
      failure = error;
      result = value;
    });
    if (failure) throw failure;
    return result;
  };
  app.removeContentTypeParser('application/json');
  // Only the routes that read their own bytes listen to their connection: a route hook of theirs, none elsewhere.
  app.addHook('onRoute', (route) => {
    if (!(route.config as { jsonBytes?: boolean } | undefined)?.jsonBytes) return;
    const own = route.onResponse ? [route.onResponse].flat() : [];
    route.onResponse = [
      ...own,
      async (request: FastifyRequest) => {
        stopListening.get(request)?.();
      },
    ] as typeof route.onResponse;
  });
  /** What a small body `text` is refused with: its shape, else what Fastify's parser says. */
  const refusal = (request: FastifyRequest, text: string): Error => {
    const shape = shapeRefusal(text);
    if (shape) return shape;
    let failure: Error | null = null;
    atOnce(request, text, (error) => (failure = error));
    return failure ?? new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  };
  app.addContentTypeParser('application/json', (request, payload, done) => {
    if (request.routeOptions.config.jsonBytes) {
      readText(request, payload as Payload, true).then(
        (bytes) => (bytes.length ? done(null, new JsonBytes(bytes, (text) => refusal(request, text), clientGoneSignal(request))) : atOnce(request, '', done)),
        (error: Error) => done(error, undefined),
      );
      return;
    }
    readText(request, payload as Payload).then(
      (text) => {
        if (text.length <= LARGE_BODY) {
          const shape = shapeRefusal(text);
          return shape ? done(shape, undefined) : atOnce(request, text, done);
        }
        parseInSlices(text, (slice) => parse(request, slice)).then(
          (value) => done(null, value),
          (error: Error) => {
            if (!(error instanceof BadJson)) return done(error, undefined);
            // The default parser's own refusal of bad JSON, so a large body is refused in the same words.
            atOnce(request, '{', (refusal) => done(refusal, undefined));
          },
        );
      },
      (error: Error) => done(error, undefined),
    );
  });
}

/**
 * The `bodies` plugin: JSON bodies read as above; and a call refused part way through its body (an upload past its
 * limit) reads and drops the rest, as Node does for a body never read: left paused, its connection stayed open after
 * the answer, unnoticed when the client went away, and a stop waited on it. (Closing it instead makes clients that
 * are still sending lose the answer.)
 */
export const bodiesPlugin = fp(
  async (app: FastifyInstance) => {
    registerJsonBodies(app);
    app.addHook('onError', (request, _reply, _error, done) => {
      if (!request.raw.complete && request.raw.isPaused()) request.raw.resume();
      done();
    });
  },
  { name: 'bodies', fastify: '5.x' },
);
