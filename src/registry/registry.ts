/** Where a registry name was read: the manifest file and the JSON path of the name inside it. */
export interface NameSite {
  file: string;
  path: string;
}

/** A name no registry knows; the message names the manifest file, the JSON path and the known names. */
export class RegistryError extends Error {
  constructor(
    public readonly kind: string,
    public readonly key: string,
    public readonly site: NameSite,
    known: string[],
  ) {
    super(`Unknown ${kind} "${key}" in ${site.file} at ${site.path} (known: ${known.join(', ') || 'none'})`);
    this.name = 'RegistryError';
  }
}

export interface Registry<T> {
  readonly kind: string;
  /** get('versionSelect', {file: 'schemas/platform.json', path: '/form/ui/maxVersion/widget'}) */
  get(name: string, site: NameSite): T;
  has(name: string): boolean;
  names(): string[];
}

/**
 * A name-keyed map; `extra` entries (overrides) win over the built-ins of the same name.
 * @example const tones = createRegistry('tone', {success: 'success'})
 */
export function createRegistry<T>(kind: string, builtIns: Record<string, T>, extra: Record<string, T> = {}): Registry<T> {
  // `extra` is read at each look-up: the application installs its overrides into it at start-up (installed.ts).
  const has = (name: string) => Object.hasOwn(extra, name) || Object.hasOwn(builtIns, name);
  const names = () => [...new Set([...Object.keys(builtIns), ...Object.keys(extra)])];
  return {
    kind,
    get(name, site) {
      if (!has(name)) throw new RegistryError(kind, name, site, names());
      return Object.hasOwn(extra, name) ? extra[name] : builtIns[name];
    },
    has,
    names,
  };
}
