// `npm run lint:openapi` (in npm test): the server's /openapi.json linted by Spectral (`spectral:oas`) and Redocly
// (`recommended`), the rulesets of tests/openapi/. Any error or warning of either fails it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openApiDocument } from './openapi-document.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'lint-openapi-'));
const file = join(dir, 'openapi.json');
let failed = false;
try {
  writeFileSync(file, JSON.stringify(await openApiDocument()));
  const spectral = await run('npx', ['spectral', 'lint', '--fail-severity', 'hint', '--ruleset', 'tests/openapi/spectral.yaml', file], { encoding: 'utf8' }).catch(
    (error: { stdout: string; stderr: string }) => ((failed = true), error),
  );
  console.log(`spectral (spectral:oas): ${spectral.stdout.trim()}`);
  const redocly = await run('npx', ['redocly', 'lint', '--format', 'json', '--config', 'tests/openapi/redocly.yaml', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout: string; stderr: string }) => error,
  );
  const report = JSON.parse(redocly.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
  for (const problem of report.problems) console.log(`redocly ${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer ?? ''})`);
  console.log(`redocly (recommended): ${report.totals.errors} errors, ${report.totals.warnings} warnings`);
  if (report.totals.errors || report.totals.warnings) failed = true;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed) {
  console.error('The API document has lint problems (above).');
  process.exit(1);
}
