// The names-only lists the build and the server check manifests against (src/registry/names.ts,
// overrides/names.ts) are exactly the names the panel's registries resolve.
import { expect, test } from 'vitest';
import { OVERRIDE_NAMES } from '../../overrides/names';
import { cells } from '../../src/registry/cells';
import { filterKinds } from '../../src/registry/filters';
import { BUILT_IN_NAMES } from '../../src/registry/names';
import { formOverrides, rowActionOverrides, screenOverrides, toolbarOverrides } from '../../src/registry/screens';
import { tones } from '../../src/registry/tones';
import { widgets } from '../../src/registry/widgets';

const both = (kind: 'widget' | 'cell' | 'filter kind' | 'tone') => [...new Set([...BUILT_IN_NAMES[kind], ...OVERRIDE_NAMES[kind]])].sort();

test('client registry names', () => {
  expect(widgets.names().sort()).toEqual(both('widget'));
  expect(cells.names().sort()).toEqual(both('cell'));
  expect(filterKinds.names().sort()).toEqual(both('filter kind'));
  expect(tones.names().sort()).toEqual(both('tone'));
});

test('override names', () => {
  expect(screenOverrides.names().sort()).toEqual([...OVERRIDE_NAMES['screen override']].sort());
  expect(formOverrides.names().sort()).toEqual([...OVERRIDE_NAMES['form override']].sort());
  expect(toolbarOverrides.names().sort()).toEqual([...OVERRIDE_NAMES['toolbar override']].sort());
  expect(rowActionOverrides.names().sort()).toEqual([...OVERRIDE_NAMES['row action override']].sort());
});
