// Multipart bodies (the spec's "multipart form" calls): fields become strings, files become UploadedFile
// buffers, so readRaw() hands handlers the same plain object a JSON body gives. Limits bound the request.
import type { FastifyInstance } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';

/** One uploaded file as the handlers see it. */
export interface UploadedFile {
  kind: 'file';
  filename: string;
  mimetype: string;
  data: Buffer;
}

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && (value as UploadedFile).kind === 'file' && Buffer.isBuffer((value as UploadedFile).data);

/** Largest single file accepted at the transport (413 above it); a manifest's files.*.maxBytes can only lower it. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: true,
    // Keep the sent file name whole, so a name with a path (`../x.png`) is refused, not silently cut down.
    preservePath: true,
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 10, fields: 100, parts: 110, fieldSize: 1024 * 1024, fieldNameSize: 100 },
    async onFile(part: MultipartFile & { value?: unknown }) {
      const file: UploadedFile = { kind: 'file', filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() };
      part.value = file;
    },
  });
}
