import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { loadManifestDir } from './server/manifests.ts';
import { formValidators } from './scripts/build/form-validators.ts';
import { schemasFolder } from './scripts/build/schemas-folder.ts';

const BACKEND = process.env.PANEL_BACKEND ?? 'http://127.0.0.1:8080';
/** The manifests the build checks (SCHEMAS_DIR, as the server reads; default schemas/). */
const SCHEMAS_DIR = resolve(import.meta.dirname, process.env.SCHEMAS_DIR ?? 'schemas');

/** Fails the build (and warns in dev) when a schemas/ manifest is invalid; the message names file and JSON path. */
function manifestCheck(): Plugin {
  const dir = SCHEMAS_DIR;
  const check = () => loadManifestDir(dir);
  return {
    name: 'manifest-check',
    buildStart() {
      try {
        check();
      } catch (e) {
        this.error(`Invalid manifest: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    handleHotUpdate({ file, server }) {
      if (!file.startsWith(dir)) return;
      try {
        check();
      } catch (e) {
        server.config.logger.error(`Invalid manifest: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
  };
}

/** Writes .br and .gz beside every text asset, so the server sends them compressed (@fastify/static preCompressed). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle(error?: Error) {
      // A failed build (a manifest mistake) wrote nothing: its own message is the one to read.
      if (error || !existsSync(outDir)) return;
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(content));
      }
    },
  };
}

/**
 * Swaps MUI modules that a list's first paint never draws for their stand-ins in src/mui/later/, in every importer
 * (MUI's own Tooltip and Autocomplete, the data grid's bindings): the grid imports every MUI component its panels
 * and menus may use, and those bytes came before the first rows. The stand-in loads the module itself on first use.
 */
function laterModules(standIns: Record<string, string>): Plugin {
  const byModule = Object.entries(standIns).map(([name, file]) => [`node_modules/@mui/material/${name}/index.mjs`, resolve(import.meta.dirname, file)] as const);
  const names = new RegExp(`(^|/)(${Object.keys(standIns).join('|')})(/index\\.mjs)?$`);
  return {
    name: 'later-modules',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !names.test(source) || byModule.some(([, file]) => importer === file)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return byModule.find(([module]) => resolved?.id.endsWith(module))?.[1] ?? null;
    },
  };
}

/**
 * Marks the entry chunk and the chunks named in `names` for eager compilation (V8's explicit compile hint, a
 * first-line comment). Without it V8 compiles a function only at its first call: the panel chunk, fetched while
 * the login screen waits, and the parts of the entry (React's commit paths, the styling engine) the login screen
 * did not run were compiled one function at a time after the login click, on the way to the first rows.
 * Runs before precompress.
 */
function compileHints(names: string[]): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !(chunk.isEntry || names.includes(chunk.name))) continue;
        const file = join(options.dir!, chunk.fileName);
        writeFileSync(file, `//# allFunctionsCalledOnLoad\n${readFileSync(file, 'utf8')}`);
      }
    },
  };
}

/**
 * Writes dist/.vite/chunks.json: the modules of every chunk (a package's by its node_modules path, the
 * project's relative to the root), so tests can check what a screen downloads by what it contains.
 */
function chunkModules(): Plugin {
  let root = '';
  const short = (id: string) => (id.includes('node_modules/') ? `node_modules/${id.slice(id.lastIndexOf('node_modules/') + 'node_modules/'.length)}` : relative(root, id));
  return {
    name: 'chunk-modules',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.fromEntries(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, Object.keys(c.modules).map(short)]] : [])));
      this.emitFile({ type: 'asset', fileName: '.vite/chunks.json', source: JSON.stringify(chunks, null, 1) });
    },
  };
}

export default defineConfig(({ command }) => ({
  // react-router's package names only its development build (which keeps its warnings in); its production build,
  // the same code without them, sits beside it.
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: resolve(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs') }] } : {},
  plugins: [
    react(),
    laterModules({
      Popper: 'src/mui/later/Popper.tsx',
      Autocomplete: 'src/mui/later/Autocomplete.tsx',
      Tabs: 'src/mui/later/Tabs.tsx',
      Tab: 'src/mui/later/Tab.tsx',
      ToggleButton: 'src/mui/later/ToggleButton.tsx',
      Modal: 'src/mui/later/Modal.tsx',
      Dialog: 'src/mui/later/Dialog.tsx',
    }),
    schemasFolder(SCHEMAS_DIR),
    manifestCheck(),
    formValidators([SCHEMAS_DIR]),
    chunkModules(),
    compileHints(['panel']),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // Every browser the panel supports preloads modules natively.
    modulePreload: { polyfill: false },
    // The panel chunk holds the data grid on purpose (every screen behind the login shows one).
    chunkSizeWarningLimit: 2500,
    rolldownOptions: {
      output: {
        // A few chunks in the order a visit needs them, instead of dozens of small shared ones (brotli compresses
        // one file of 300 kB far better than twenty of 15): what the page starts with; the manifests; the login
        // screen with the parts it shares with the panel; and the panel behind the login (shell, screens, grid,
        // overrides registry, notice stack: a notice of a failed call must draw with the server gone). Forms, bespoke screens,
        // the live socket's client (it comes once the first rows are drawn) and the Russian dictionary stay chunks of
        // their own.
        // bench/bundle.ts measures the result in Chromium.
        codeSplitting: {
          groups: [
            { name: 'boot', tags: ['$initial'], priority: 4 },
            // The manifests, which a visit without a session fetches once its login screen is drawn (Boot.tsx), with
            // the code that checks their names (which the panel's own code shares).
            { name: 'manifests', test: /src[\\/]mui[\\/]checked-manifests\.ts$/, priority: 3 },
            { name: 'login', test: /src[\\/]mui[\\/]LoginScreen\.tsx$/, priority: 2 },
            {
              name: 'panel',
              test: /src[\\/]mui[\\/](Shell|EntityScreen|Notices|NotFound)\.tsx$|overrides[\\/](index|widgets)\.tsx?$/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/v1': BACKEND,
      '/socket.io': { target: BACKEND, ws: true },
      '/config.json': BACKEND,
      // Asset files only: /whitelabels and /builds themselves are screens of the panel.
      '^/whitelabels/.+': BACKEND,
      '^/builds/.+': BACKEND,
    },
  },
}));
