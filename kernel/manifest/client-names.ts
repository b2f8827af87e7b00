// The names the panel's registries know — its built-in cells, widgets, filter kinds and tones, and this
// application's overrides — as plain lists, for the checks that run in Node (the build's manifest check, the
// server start), which read them here and never from src/ or overrides/. src/registry/names.ts and
// overrides/names.ts hand the same lists to the panel; tests/unit/registry-names.test.ts keeps them equal to the
// registries of cells.tsx, filters.tsx, tones.ts, widgets.tsx and overrides/, and docs/reference.md is checked
// against them.
import type { NamesPart } from './names.ts';

/** The built-in client registries (src/registry/). */
export const BUILT_IN_NAMES = {
  widget: ['text', 'textarea', 'password', 'select', 'checkbox', 'number', 'versionSelect', 'lookup', 'file'],
  cell: ['text', 'boolean', 'toggle', 'json', 'link', 'image', 'copy', 'lookup', 'changes'],
  'filter kind': ['text', 'number', 'select', 'lookup'],
  tone: ['success', 'warning', 'info', 'danger'],
} satisfies NamesPart;

/** What this application's overrides register (overrides/index.ts, overrides/widgets.ts). */
export const OVERRIDE_NAMES = {
  'screen override': ['combinationsScreen', 'dashboard', 'testRequest'],
  'form override': ['whitelabelForm', 'experimentForm', 'testersPhonesForm'],
  'toolbar override': ['officeIpBox', 'ipImport', 'runPipeline'],
  'row action override': ['deleteCollectionUser', 'pipelineStatuses'],
  widget: ['ipWithMask'],
  cell: [],
  'filter kind': [],
  tone: [],
} satisfies NamesPart;
