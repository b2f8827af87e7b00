// The error of a manifest mistake: which schemas/ file, where in it (JSON pointer), and what is wrong.

/** A manifest that is not valid; `file` is the schemas/ file and `path` the JSON pointer of the fault. */
export class ManifestError extends Error {
  file: string;
  path: string;
  constructor(file: string, path: string, problem: string) {
    super(`${file} at ${path || '/'}: ${problem}`);
    this.name = 'ManifestError';
    this.file = file;
    this.path = path || '/';
  }
}
