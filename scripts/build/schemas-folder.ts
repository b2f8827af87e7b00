// Which schemas folder the panel is built from: SCHEMAS_DIR, as the server and the build's checks read it
// (default schemas/). The panel imports its manifests as `import.meta.glob('@schemas/*.json')`
// (src/core/manifest/bundled.ts) and its roles through kernel/roles.ts's `../schemas/roles.json`; this
// plugin points both at the folder, so a build of another folder needs no edit of the panel's code.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');
const OWN_ROLES = join(ROOT, 'schemas', 'roles.json');

/** @example plugins: [schemasFolder(process.env.SCHEMAS_DIR ?? 'schemas')] */
export function schemasFolder(dir: string): Plugin {
  const folder = resolve(ROOT, dir);
  // A folder without a roles.json keeps this application's roles, as the server does (kernel/manifest/read-dir.ts).
  const roles = existsSync(join(folder, 'roles.json')) ? join(folder, 'roles.json') : OWN_ROLES;
  return {
    name: 'schemas-folder',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      // Globs come here too: '@schemas/*.json' becomes '<folder>/*.json'.
      if (source.startsWith('@schemas/')) return join(folder, source.slice('@schemas/'.length));
      if (roles === OWN_ROLES || !source.endsWith('schemas/roles.json')) return null;
      const own = await this.resolve(source, importer, { ...options, skipSelf: true });
      return own?.id === OWN_ROLES ? roles : null;
    },
  };
}
