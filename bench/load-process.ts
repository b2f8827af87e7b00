// A load generator as its own Node process (as clients on other machines would be): its source runs with `-e`, reads
// its settings from the LOAD variable and writes its figures as one JSON document to stdout before it exits.
import { spawn } from 'node:child_process';

/**
 * Runs `source` with `load` as its settings; resolves to the JSON it printed.
 * @example const figures = await runLoadProcess<Phase>(LOADER, { base, seconds: 5 });
 */
export function runLoadProcess<T>(source: string, load: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', source], { env: { ...process.env, LOAD: JSON.stringify(load) } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.once('error', reject);
    child.once('exit', () => resolve(JSON.parse(out) as T));
  });
}
