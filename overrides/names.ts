// The names this application's overrides register (overrides/index.ts, overrides/widgets.ts), without React or
// MUI. The list is kept in the kernel (kernel/manifest/client-names.ts), where the checks that run in Node (build,
// server start) read it too; tests/unit/registry-names.test.ts keeps it equal to what the overrides register.
export { OVERRIDE_NAMES } from '../kernel/manifest/client-names.ts';
