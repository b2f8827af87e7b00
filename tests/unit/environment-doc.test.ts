// The README's Environment table is the one place the settings are documented: every variable the server and the
// scripts read is a row there, and every row is a variable something reads.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const readme = readFileSync('README.md', 'utf8');

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Names read as env.NAME, env['NAME'] (process.env included) or through a reader given (env, 'NAME'). */
const readNames = (text: string) =>
  [...text.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\]|, ['"]([A-Z][A-Z0-9_]+)['"])/g)].map((m) => m[1] ?? m[2] ?? m[3]);

function tableNames(): string[] {
  const start = readme.indexOf('\n## Environment');
  expect(start, 'the README has an Environment section').toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  const rows = readme.slice(start, end).split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
}

test('every variable the server and the scripts read has a row in the README Environment table, once', () => {
  const read = new Set(['server', 'scripts'].flatMap(sources).flatMap((file) => readNames(readFileSync(file, 'utf8'))));
  const documented = tableNames();
  expect([...read].filter((name) => !documented.includes(name)).sort()).toEqual([]);
  expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
});

test('every row of the Environment table is a variable the server or a script reads', () => {
  const read = new Set(['server', 'scripts'].flatMap(sources).flatMap((file) => readNames(readFileSync(file, 'utf8'))));
  expect(tableNames().filter((name) => !read.has(name)).sort()).toEqual([]);
});
