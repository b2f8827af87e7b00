// The names of the built-in client registries, without React or MUI, for the checks that run in Node (the
// build's manifest check, the server start). tests/unit/registry-names.test.ts keeps them equal to the
// registries of cells.tsx, filters.tsx, tones.ts and widgets.tsx; docs/reference.md is checked against them.
import type { NamesPart } from '../../kernel/manifest/names.ts';

export const BUILT_IN_NAMES = {
  widget: ['text', 'textarea', 'password', 'select', 'checkbox', 'number', 'versionSelect', 'lookup', 'file'],
  cell: ['text', 'boolean', 'toggle', 'json', 'link', 'image', 'copy', 'lookup', 'changes'],
  'filter kind': ['text', 'number', 'select', 'lookup'],
  tone: ['success', 'warning', 'info', 'danger'],
} satisfies NamesPart;
