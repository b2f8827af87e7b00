// The layers of the application, checked by `npm run depcheck` inside `npm test` (dependency-cruiser):
// kernel/ is shared and depends on nothing of the application; server/ imports nothing of the panel or the
// overrides; src/core is headless (no MUI); and there are no import cycles,
// type-only imports included, neither between files nor between the folders of server/.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'kernel-stands-alone',
      comment: 'kernel/ is imported by server/, src/ and overrides/ alike, so it imports none of them.',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { path: '^(server|src|overrides|scripts|tests)/' },
    },
    {
      name: 'server-without-ui',
      comment: 'server/ runs in Node and imports nothing of the panel or the overrides: the registry names it checks are in kernel/.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(src|overrides)/' },
    },
    {
      name: 'names-only-modules-stay-names-only',
      comment: 'The names-only lists are read by Node at build and start: they import nothing but kernel types.',
      severity: 'error',
      from: { path: '^(src/registry/names\\.ts|overrides/names\\.ts|server/actions/names\\.ts)$' },
      to: { pathNot: '^kernel/' },
    },
    {
      name: 'core-is-headless',
      comment: 'src/core holds the panel logic without a UI toolkit; MUI lives in src/mui and the registries.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '(^|/)node_modules/@mui/|^src/mui/' },
    },
    {
      name: 'contract-is-ground-floor',
      comment: 'server/contract/ (the schema of every route) is read by the routes and the document alike: it imports only kernel/ and libraries.',
      severity: 'error',
      from: { path: '^server/contract/' },
      to: { path: '^(server|src|overrides|scripts|tests|bench)/', pathNot: '^server/contract/' },
      },
      {
      name: 'server-folders-layered',
      comment:
        'The folders of server/ form layers, with no cycle between folders (type-only imports included): model/ and ' +
        'core/ are the ground floor (entity models, the engine context, input checks, shared types), db/ sits on ' +
        'them, plugins/ on db/, crud/ on plugins/, actions/ on crud/. A type two folders share goes down to core/.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^server/' },
      to: { circular: true },
    },
    {
      name: 'no-cycles',
      comment: 'No import cycles, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
