// The names of the built-in client registries, without React or MUI. The list is kept in the kernel
// (kernel/manifest/client-names.ts), where the checks that run in Node (build, server start) read it too;
// tests/unit/registry-names.test.ts keeps it equal to the registries of cells.tsx, filters.tsx, tones.ts and widgets.tsx.
export { BUILT_IN_NAMES } from '../../kernel/manifest/client-names.ts';
