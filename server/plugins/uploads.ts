// Multipart bodies (the spec's "multipart form" calls), read only once the caller has passed the role check:
// text fields become strings, each file is streamed to DATA_DIR/.staging (never held whole in memory) within
// its field's declared size, so the route's validator (server/core/input.ts) hands handlers the same plain object a JSON body gives. A malformed
// body is a 400, a limit passed a 413; staged files are removed when the response is sent.
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest, onSendAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
import multipart, { type Multipart } from '@fastify/multipart';
import fp from 'fastify-plugin';
import type { FileRule } from '../../kernel/manifest/types.ts';
import { AppError, fieldError, malformed } from '../errors.ts';
import { STAGING, stagingPath } from '../core/file-paths.ts';

/** One uploaded file as the handlers see it: staged on disk, read back only by the checks of its rule. */
export interface UploadedFile {
  kind: 'file';
  filename: string;
  mimetype: string;
  /** Where the bytes were staged; removed after the response. */
  path: string;
  size: number;
}

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && (value as UploadedFile).kind === 'file' && typeof (value as UploadedFile).path === 'string';

/** Largest single file accepted at the transport (413 above it); a manifest's files.*.maxBytes can only lower it. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Largest text field of a multipart form: a JSON value sent as text is capped as a JSON body is. */
export const MAX_FIELD_BYTES = 256 * 1024;


export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { preservePath: true });
}

/** What one multipart call may carry: its upload fields (by rule) and how many text fields it declares. */
export interface MultipartShape {
  files: Record<string, FileRule>;
  fields: number;
  /** Field titles, as refusals name the fields (`Logo 1280x720 (PNG) is larger than ...`). */
  titles?: Record<string, string>;
}

function tooLarge(field: string, max: number, key = field) {
  return fieldError(key, `${field} is larger than ${max} bytes`, 413);
}

/** Copies a file part to `path`, refusing it as soon as it passes `max` bytes. */
async function stageFile(stream: NodeJS.ReadableStream, path: string, field: string, max: number, key = field): Promise<number> {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(size > max ? tooLarge(field, max, key) : null, chunk);
    },
  });
  await pipeline(stream, counter, createWriteStream(path, { flags: 'wx' }));
  return size;
}

/** busboy's and the plugin's refusals of a body as 4xx: a limit passed is 413, anything malformed 400. */
function asClientError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const status = (error as { statusCode?: number }).statusCode;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status === 'number' && status === 413) return new AppError(413, `The form is too large: ${message}`);
  if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return error;
  return malformed(`The multipart form is malformed: ${message}`);
}

const staged = new WeakMap<FastifyRequest, string[]>();

async function removeStaged(request: FastifyRequest): Promise<void> {
  const paths = staged.get(request) ?? [];
  staged.delete(request);
  await Promise.all(paths.map((path) => rm(path, { force: true })));
}

/** The onSend hook of a multipart call: the files it staged are gone before the answer leaves. */
export const removeStagedUploads: onSendAsyncHookHandler = async (request, _reply, payload) => {
  await removeStaged(request);
  return payload;
};

/**
 * The preValidation hook of a multipart call: reads the parts into request.body with per-field limits.
 * @example app.route({ ..., preValidation: readMultipart(dataDir, shape), onSend: removeStagedUploads })
 */
export function readMultipart(dataDir: string, shape: MultipartShape): preValidationAsyncHookHandler {
  const largest = Math.max(0, ...Object.values(shape.files).map((rule) => Math.min(rule.maxBytes ?? MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES)));
  const fileCount = Object.keys(shape.files).length;
  // The number of files is bounded by the checks below (declared fields only, each once).
  const limits = {
    fileSize: largest,
    fields: shape.fields,
    parts: fileCount + shape.fields + 1,
    fieldSize: MAX_FIELD_BYTES,
    fieldNameSize: 100,
    headerPairs: 20,
  };
  const folder = join(dataDir, STAGING);
  return async (request) => {
    if (!request.isMultipart()) throw new AppError(415, 'This call takes a multipart form (multipart/form-data)');
    const body: Record<string, unknown> = Object.create(null);
    const paths: string[] = [];
    staged.set(request, paths);
    const keep = (name: string, value: unknown) => {
      const before = body[name];
      body[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
    };
    try {
      await mkdir(folder, { recursive: true });
      for await (const part of request.parts({ limits }) as AsyncIterable<Multipart>) {
        if (part.type === 'field') {
          keep(part.fieldname, part);
          continue;
        }
        const rule = shape.files[part.fieldname];
        const title = shape.titles?.[part.fieldname] ?? part.fieldname;
        if (!rule) throw fieldError(part.fieldname, `${title} must be a text field, not a file`);
        if (body[part.fieldname] !== undefined) throw fieldError(part.fieldname, `${title} must be given once`);
        const max = Math.min(rule.maxBytes ?? MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES);
        const path = stagingPath(dataDir, '.upload');
        paths.push(path);
        const size = await stageFile(part.file, path, title, max, part.fieldname);
        if (part.file.truncated) throw tooLarge(title, max, part.fieldname);
        const file: UploadedFile = { kind: 'file', filename: part.filename, mimetype: part.mimetype, path, size };
        keep(part.fieldname, { type: 'file', value: file });
      }
    } catch (error) {
      await removeStaged(request);
      throw asClientError(error);
    }
    request.body = body;
  };
}

/** The `uploads` plugin: multipart bodies, which the manifests' file calls read (readMultipart). */
export const uploadsPlugin = fp(async (app: FastifyInstance) => registerUploads(app), { name: 'uploads', fastify: '5.x' });
