// ESLint (flat config): typescript-eslint's recommended rules and the React hooks rules, over every TypeScript
// file of the kernel, the engines, the overrides, the scripts and the tests. Run by `npm run lint` in `npm test`.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.tmp/', 'kernel/manifest/generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // The Rules of Hooks and complete effect dependencies. (The React Compiler rules of the plugin's
      // recommended-latest preset are not enabled: the panel does not use the compiler.)
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Unused names are also tsc's job (noUnusedLocals); `_name` marks a deliberate leftover of a destructuring.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
  {
    // The server's rows and tables are shaped by the manifests at run time: `Kysely<any>` and row records are
    // how Kysely queries tables no TypeScript type knows. The kernel, the panel and the overrides stay any-free.
    files: ['server/**', 'scripts/**', 'tests/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
