// Serves stored files to the TV apps and the panel, without a token: every folder an upload path of a manifest
// writes to (`whitelabels/...` of SPEC section 7) and the build tree. A missing file is a 404 envelope, never
// the panel's index.html, so "is this asset reachable" has an honest answer.
import { extname, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { BEFORE_ROUTES } from '../core/plugin-tree.ts';
import type { Manifest } from '../../kernel/manifest/types.ts';
import { localPath } from '../core/file-paths.ts';

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

/**
 * One @fastify/static scope per folder (ETag, Last-Modified, Range, 304): the scope's own guard keeps the path
 * rules of localPath (no dot segments, nothing outside the folder) and its own 404 handler keeps a missing file
 * a 404 envelope rather than the panel's index.html.
 */
export async function registerAssets(app: FastifyInstance, dataDir: string, folders: string[]): Promise<void> {
  for (const folder of folders) {
    const root = resolve(dataDir, folder);
    await app.register(async (scope) => {
      scope.addHook('onRequest', async (request, reply) => {
        let urlPath = request.url.split('?')[0];
        try {
          urlPath = decodeURIComponent(urlPath);
        } catch {
          return reply.status(400).send({ result: false, message: `Bad path ${urlPath}`, code: 'ERR_MALFORMED' });
        }
        if (!localPath(dataDir, urlPath, folder)) return reply.status(404).send({ result: false, message: `No file ${urlPath}`, code: 'ERR_NOT_FOUND' });
      });
      scope.setNotFoundHandler((request, reply) => {
        reply.status(404).send({ result: false, message: `No file ${safeDecode(request.url.split('?')[0])}`, code: 'ERR_NOT_FOUND' });
      });
      await scope.register(fastifyStatic, {
        root,
        // The folder appears with the first upload; until then every path is a 404.
        suppressWarning: true,
        prefix: '/',
        decorateReply: false,
        index: false,
        redirect: false,
        dotfiles: 'ignore',
        // Uploads replace files in place: clients revalidate (ETag / Last-Modified) instead of showing a stale logo.
        cacheControl: false,
        setHeaders(reply, path) {
          reply
            .header('content-type', TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream')
            .header('x-content-type-options', 'nosniff')
            // Opened directly, a stored file is a sandboxed document: no script, no same-origin access to the panel.
            .header('content-security-policy', 'sandbox')
            .header('cache-control', 'no-cache');
        },
      });
    }, { prefix: `/${folder}` });
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The `assets` plugin: the stored files' folders under DATA_DIR, each at /<folder>/ (as above). */
export const assetsPlugin = fp(async (app: FastifyInstance, options: { dataDir: string; folders: string[] }) => registerAssets(app, options.dataDir, options.folders), {
  name: 'assets',
  dependencies: BEFORE_ROUTES,
  fastify: '5.x',
});
