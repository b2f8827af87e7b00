// The benches' command-line flags, read the same way by all of them: `--name value`, `--name=value` and `--no-name`,
// also when npm kept them for itself (`npm run bench scale --rows 5` without `--` hands the bench `scale 5` and sets
// npm_config_rows=true; `--rows=5` sets npm_config_rows=5; `--no-client` sets npm_config_client to '').

const fromNpm = (name: string): string | undefined => process.env[`npm_config_${name.replace(/-/g, '_')}`];

/** Every flag of the benches that takes a value (npm turns each into a switch when `--` is missing). */
const VALUED = ['rows', 'keep', 'seconds', 'rounds', 'round-seconds', 'dialect', 'read-workers', 'heavy', 'runs', 'lines', 'file-lines', 'ip-lines', 'before', 'mib', 'cases', 'logins', 'burst', 'list-seconds', 'hour-seconds'];

/** What the scale report and issue 34's report may skip with `--no-name`. */
const SWITCHES = ['lists', 'client', 'ip-import', 'json-body', 'lookup', 'fleet'];

/** The positionals: the bench's name, unless npm left a flag's value in its place (`npm run bench --rows 5`). */
const positionals = () => process.argv.slice(2).filter((a) => !a.startsWith('--'));

/**
 * The bench asked for by name, `scale` when only flags were given (`npm run bench -- --rows 1000000`), `all` when nothing.
 * @example benchName() // 'lists' for `npm run bench -- lists --rows 5`
 */
export function benchName(): string {
  const first = process.argv[2];
  if (first?.startsWith('--')) return 'scale';
  if (first !== undefined && !/^\d+$/.test(first)) return first;
  return first !== undefined || [...VALUED, ...SWITCHES].some((flag) => fromNpm(flag) !== undefined) ? 'scale' : 'all';
}

/** The value npm left behind when it took `--name value` as a switch: the one positional besides the bench's name. */
function strandedValue(name: string): string {
  const stranded = positionals().filter((a, i) => i > 0 || /^\d+$/.test(a));
  const switches = VALUED.filter((flag) => fromNpm(flag) === 'true');
  if (switches.length === 1 && stranded.length === 1) return stranded[0];
  throw new Error(`--${name}: npm took it for its own flag and left its value apart; put \`--\` before the bench's flags (npm run bench -- scale --${name} <value>) or write --${name}=<value>`);
}

/** The value of `--name` on the command line, else `fallback`. */
export function option(name: string, fallback: string): string {
  const argv = process.argv;
  const at = argv.indexOf(`--${name}`);
  if (at > 0 && argv[at + 1] !== undefined && !argv[at + 1].startsWith('--')) return argv[at + 1];
  const inline = argv.find((a) => a.startsWith(`--${name}=`));
  if (inline) return inline.slice(name.length + 3);
  const npm = fromNpm(name);
  if (npm === 'true') return strandedValue(name);
  return npm ? npm : fallback;
}

/** False when `--no-name` was given. */
export function enabled(name: string): boolean {
  return !process.argv.includes(`--no-${name}`) && fromNpm(name) !== '';
}
