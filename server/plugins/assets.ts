// Serves stored files to the TV apps and the panel, without a token: every folder an upload path of a manifest
// writes to (`whitelabels/...` of SPEC section 7) and the build tree. A missing file is a 404 envelope, never
// the panel's index.html, so "is this asset reachable" has an honest answer.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Manifest } from '../../src/core/manifest/types.ts';
import { localPath } from '../crud/files.ts';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/** Top folders of the manifests' upload paths, e.g. ["whitelabels"]. */
export function uploadFolders(manifests: Manifest[]): string[] {
  const folders = new Set<string>();
  for (const m of manifests) {
    for (const rule of Object.values(m.storage?.files ?? {})) if (rule.path) folders.add(rule.path.split('/')[0]);
  }
  return [...folders];
}

export function registerAssets(app: FastifyInstance, dataDir: string, folders: string[]): void {
  for (const folder of folders) {
    app.get(`/${folder}/*`, async (request, reply) => {
      let urlPath = request.url.split('?')[0];
      try {
        urlPath = decodeURIComponent(urlPath);
      } catch {
        return reply.status(400).send({ result: false, message: `Bad path ${urlPath}`, code: 'ERR_MALFORMED' });
      }
      const full = localPath(dataDir, urlPath, folder);
      const found = full ? await stat(full).catch(() => undefined) : undefined;
      if (!full || !found?.isFile()) return reply.status(404).send({ result: false, message: `No file ${urlPath}`, code: 'ERR_NOT_FOUND' });
      return reply
        .header('content-type', TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream')
        .header('x-content-type-options', 'nosniff')
        // Opened directly, a stored file is a sandboxed document: no script, no same-origin access to the panel.
        .header('content-security-policy', 'sandbox')
        // Uploads replace files in place: clients revalidate instead of showing a stale logo.
        .header('cache-control', 'no-cache')
        .header('last-modified', found.mtime.toUTCString())
        .header('content-length', found.size)
        .send(createReadStream(full));
    });
  }
}
