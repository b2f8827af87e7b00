import type { ActionDecl } from '../../../kernel/manifest/types';
import type { FieldTitles } from '../i18n/messages';
import { HttpError } from './http-error';

export { HttpError };

export type Params = Record<string, unknown>;

export interface DataProviderOptions {
  /** The `backendUrl` of /config.json; '' means the panel's own origin. */
  baseUrl: string;
  getToken: () => string | null;
  /** Called once for a 401 answered while a token was held (SPEC 8). */
  onUnauthorized: () => void;
  /** The fields a call at this path takes, titled in the panel's language: a refusal names its bad fields by them. */
  titlesOf?: (path: string) => FieldTitles | undefined;
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** Send this token instead of the session's (logout revokes a token the session already dropped). */
  token?: string;
  /** Let the request outlive the page (a delete still waiting behind its Undo toast when the tab closes). */
  keepalive?: boolean;
  /** Cancels the request (the Cancel of an import in progress); it then fails as a network error. */
  signal?: AbortSignal;
  /**
   * Called as a multipart body goes out (a form's files): the bytes sent so far and the body's size. Such a call
   * is sent with XMLHttpRequest, the one browser API that reports an upload's progress; its answer is read as
   * fetch's is.
   */
  onUploadProgress?: (progress: UploadProgress) => void;
}

/** How much of a request body has gone out: `sent` of `total` bytes. */
export interface UploadProgress {
  sent: number;
  total: number;
}

export interface DownloadOptions {
  /** Cancels the download (the export's Cancel). */
  signal?: AbortSignal;
  /** Called as the body arrives: the bytes so far and the lines (CSV rows) among them. */
  onProgress?: (progress: { bytes: number; lines: number }) => void;
}

export interface ListResult<R = Record<string, unknown>> {
  rows: R[];
  count: number;
  /** More rows match than `count` (the server's limit): shown as "10,000+". */
  countCapped?: boolean;
  /** The cursor of the next page (send it as `after` with that page's number), when this page is full. */
  next?: string;
}

export interface DataProvider {
  /** request('GET', '/v1/admin/platform/get', {page: 1}) resolves to the envelope's `data`. */
  request<T = unknown>(method: ActionDecl['method'], path: string, params?: Params, input?: ActionDecl['input'], options?: RequestOptions): Promise<T>;
  /**
   * call(manifest.actions.create, {name: 'webOS'}): the action's method, path and input placement. A JSON call
   * may be given its body already encoded, as a Blob (the IP import's worker writes 20 MB off the main thread).
   */
  call<T = unknown>(action: ActionDecl, params?: Params | Blob, options?: RequestOptions): Promise<T>;
  list<R = Record<string, unknown>>(action: ActionDecl, params?: Params, options?: RequestOptions): Promise<ListResult<R>>;
  /** A GET that answers a file (the CSV export): its body and the name the server gives it; failures as request's. */
  download(path: string, params?: Params, options?: DownloadOptions): Promise<{ blob: Blob; filename: string | null }>;
}

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === '';
}

/**
 * The query string of a call: empty values are left out, null is sent empty (the server stores null for a field
 * that may be empty: a cleared field on edit), objects and arrays are sent as JSON text.
 */
export function toQuery(params: Params = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (!isEmpty(value)) search.set(key, value === null ? '' : toText(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

function defaultInput(method: ActionDecl['method']): NonNullable<ActionDecl['input']> {
  return method === 'GET' || method === 'DELETE' ? 'query' : 'json';
}

/** A body read chunk by chunk, counting its bytes and newlines as they come; a cancel stops the read. */
async function readCounting(response: Response, onProgress: NonNullable<DownloadOptions['onProgress']>, signal?: AbortSignal): Promise<Blob> {
  const reader = response.body!.getReader();
  const parts: Uint8Array[] = [];
  let bytes = 0;
  let lines = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      bytes += value.byteLength;
      for (let i = value.indexOf(10); i >= 0; i = value.indexOf(10, i + 1)) lines++;
      onProgress({ bytes, lines });
    }
  } catch {
    throw new HttpError(signal?.aborted ? 'Cancelled' : 'Network Error', 0);
  }
  return new Blob(parts as BlobPart[], { type: response.headers.get('content-type') ?? '' });
}

/** An answer as both senders hand it over: its status and its body parsed as JSON (undefined when it is not). */
interface Answer {
  status: number;
  statusText: string;
  envelope: unknown;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends a request with XMLHttpRequest, reporting the body's upload as it goes; the signal aborts it. Fails as
 * fetch does: 'Cancelled' when aborted, 'Network Error' without an answer.
 */
function sendWithProgress(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: XMLHttpRequestBodyInit | undefined,
  onUploadProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new HttpError('Cancelled', 0));
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', abort);
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onUploadProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : event.loaded });
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, statusText: xhr.statusText, envelope: parseJson(xhr.responseText) });
    };
    xhr.onerror = xhr.ontimeout = () => {
      done();
      reject(new HttpError(signal?.aborted ? 'Cancelled' : 'Network Error', 0));
    };
    xhr.onabort = () => {
      done();
      reject(new HttpError('Cancelled', 0));
    };
    signal?.addEventListener('abort', abort, { once: true });
    xhr.send(body ?? null);
  });
}

/**
 * The one module for all HTTP of the panel. A call succeeds only on HTTP 200 with `result: true`; every other
 * answer becomes an `HttpError` carrying the server's message.
 * @example createDataProvider({baseUrl: '', getToken: () => session.token, onUnauthorized: logout})
 */
export function createDataProvider(options: DataProviderOptions): DataProvider {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const base = options.baseUrl.replace(/\/+$/, '');

  async function request<T>(
    method: ActionDecl['method'],
    path: string,
    params: Params | Blob = {},
    input = defaultInput(method),
    requestOptions: RequestOptions = {},
  ): Promise<T> {
    const held = requestOptions.token === undefined;
    const token = held ? options.getToken() : requestOptions.token;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = token;
    let url = `${base}${path}`;
    let body: BodyInit | undefined;
    if (params instanceof Blob) {
      if (input !== 'json') throw new Error(`${path}: an encoded body is for JSON calls only`);
      headers['Content-Type'] = 'application/json';
      body = params;
    } else if (input === 'query') url += toQuery(params);
    else if (input === 'json') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(params);
    } else {
      const form = new FormData();
      for (const [key, value] of Object.entries(params)) {
        if (isEmpty(value)) continue;
        form.append(key, value instanceof Blob ? value : value === null ? '' : toText(value));
      }
      body = form;
    }
    const { signal, onUploadProgress } = requestOptions;
    const answer =
      onUploadProgress && body instanceof FormData && typeof XMLHttpRequest !== 'undefined'
        ? await sendWithProgress(method, url, headers, body, onUploadProgress, signal)
        : await fetchAnswer(url, { method, headers, body, keepalive: requestOptions.keepalive, signal });
    return envelopeData<T>(answer, path, Boolean(token && held));
  }

  async function fetchAnswer(url: string, init: RequestInit): Promise<Answer> {
    let response: Response;
    try {
      response = await doFetch(url, init);
    } catch {
      throw new HttpError(init.signal?.aborted ? 'Cancelled' : 'Network Error', 0);
    }
    let envelope: unknown;
    try {
      envelope = await response.json();
    } catch {
      envelope = undefined;
    }
    return { status: response.status, statusText: response.statusText, envelope };
  }

  /** The `data` of a good answer (HTTP 200, `result: true`); any other is thrown as an HttpError with the server's message. */
  function envelopeData<T>({ status, statusText, envelope }: Answer, path: string, sessionToken: boolean): T {
    const env = (envelope ?? {}) as { result?: unknown; data?: unknown; message?: unknown };
    if (status === 401 && sessionToken) options.onUnauthorized();
    if (status !== 200 || env.result !== true) {
      const message = typeof env.message === 'string' ? env.message : statusText || `HTTP ${status}`;
      throw new HttpError(message, status, envelope, options.titlesOf?.(path));
    }
    return env.data as T;
  }

  async function download(path: string, params: Params = {}, { signal, onProgress }: DownloadOptions = {}) {
    const token = options.getToken();
    let response: Response;
    try {
      response = await doFetch(`${base}${path}${toQuery(params)}`, { headers: token ? { Authorization: token } : {}, signal });
    } catch {
      throw new HttpError(signal?.aborted ? 'Cancelled' : 'Network Error', 0);
    }
    if (response.status !== 200) {
      if (response.status === 401 && token) options.onUnauthorized();
      const env = (await response.json().catch(() => ({}))) as { message?: unknown };
      throw new HttpError(typeof env.message === 'string' ? env.message : `HTTP ${response.status}`, response.status, env);
    }
    const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? null;
    if (!onProgress || !response.body) return { blob: await response.blob(), filename };
    return { blob: await readCounting(response, onProgress, signal), filename };
  }

  return {
    request,
    download,
    call: (action, params, callOptions) => request(action.method, action.path, params, action.input, callOptions),
    list: (action, params, options) => request(action.method, action.path, params, action.input, options),
  };
}
