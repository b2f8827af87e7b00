// The manifest types are generated from the meta-schema and roles.json (scripts/build/manifest-types.ts);
// this fails when kernel/manifest/generated.ts was not regenerated after a schema change.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { expectedSource, manifestTypesProblem } from '../../scripts/build/manifest-types';

test('kernel/manifest/generated.ts matches schemas/manifest.schema.json and schemas/roles.json', () => {
  expect(manifestTypesProblem()).toBeNull();
});

test('a new role in roles.json and a new key in the meta-schema change the generated types', () => {
  const dir = mkdtempSync(join(tmpdir(), 'types-'));
  cpSync('schemas', dir, { recursive: true });
  const roles = JSON.parse(readFileSync(join(dir, 'roles.json'), 'utf8'));
  roles.roles.auditor = { description: 'Reads the audit log.' };
  writeFileSync(join(dir, 'roles.json'), JSON.stringify(roles));
  const meta = JSON.parse(readFileSync(join(dir, 'manifest.schema.json'), 'utf8'));
  meta.properties.list.properties.dense = { type: 'boolean', description: 'Tighter rows.' };
  writeFileSync(join(dir, 'manifest.schema.json'), JSON.stringify(meta));
  const text = expectedSource(dir);
  expect(text).toContain('export type Role = "admin" | "developer" | "tester" | "customercare" | "auditor";');
  const listDecl = text.slice(text.indexOf('export interface ListDecl {'), text.indexOf('\n}\n', text.indexOf('export interface ListDecl {')));
  expect(listDecl).toContain('  /** Tighter rows. */\n  dense?: boolean;');
});
