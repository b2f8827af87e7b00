// docs/reference.md lists exactly the names the registries know, so the reference cannot drift from the code.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import metaSchema from '../../schemas/manifest.schema.json';
import { OVERRIDE_NAMES } from '../../overrides/names';
import { SERVER_NAMES } from '../../server/actions/names';
import { BUILT_IN_NAMES } from '../../src/registry/names';

const doc = readFileSync('docs/reference.md', 'utf8');

/** The `- \`name\`` items of the section whose heading starts with `heading`. */
function items(heading: string): string[] {
  const start = doc.indexOf(`## ${heading}`);
  expect(start, `docs/reference.md has a section "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return [...doc.slice(start, end < 0 ? undefined : end).matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]).sort();
}

/** The `name` list after a label such as "Handlers (`actions.*.handler`):". */
function listed(label: string): string[] {
  const start = doc.indexOf(label);
  expect(start, `docs/reference.md lists "${label}"`).toBeGreaterThanOrEqual(0);
  const text = doc.slice(start + label.length).split(/\.\n|\.$/)[0];
  const after = text.slice(text.indexOf(':') + 1);
  return [...after.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();
}

const both = (kind: 'widget' | 'cell' | 'filter kind' | 'tone') => [...BUILT_IN_NAMES[kind], ...OVERRIDE_NAMES[kind]].sort();

test('every widget, cell, filter kind and tone is described, and nothing else', () => {
  expect(items('Form widgets')).toEqual(both('widget'));
  expect(items('Cells')).toEqual(both('cell'));
  expect(items('Filter kinds')).toEqual(both('filter kind'));
  expect(items('Tones')).toEqual(both('tone'));
});

test('every action kind of the meta-schema is described', () => {
  expect(items('Action kinds')).toEqual([...metaSchema.definitions.action.properties.kind.enum].sort());
});

test('every override and server name is listed', () => {
  expect(listed('Screen overrides')).toEqual([...OVERRIDE_NAMES['screen override']].sort());
  expect(listed('Form overrides')).toEqual([...OVERRIDE_NAMES['form override']].sort());
  expect(listed('Toolbar overrides')).toEqual([...OVERRIDE_NAMES['toolbar override']].sort());
  expect(listed('Row action overrides')).toEqual([...OVERRIDE_NAMES['row action override']].sort());
  expect(listed('Handlers')).toEqual([...SERVER_NAMES.handler].sort());
  expect(listed('Record checks')).toEqual([...SERVER_NAMES.check].sort());
  expect(listed('Before hooks')).toEqual([...SERVER_NAMES['before hook']].sort());
  expect(listed('Value sources')).toEqual([...SERVER_NAMES['value source']].sort());
});
