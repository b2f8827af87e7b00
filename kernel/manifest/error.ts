// The error of manifest mistakes: which schemas/ file, where in it (JSON pointer), and what is wrong — every
// mistake of a folder at once, so that three mistakes cost one build, not three.

/** One mistake: the schemas/ file, the JSON pointer of the fault, and what is wrong there. */
export interface ManifestProblem {
  file: string;
  path: string;
  problem: string;
}

const line = (p: ManifestProblem) => `${p.file} at ${p.path || '/'}: ${p.problem}`;

/**
 * A manifest folder that is not valid; `file` and `path` are its first mistake's, `problems` lists them all.
 * One mistake reads `schemas/goal.json at /list/columns/0/cell: unknown cell "bool" (...)`; several read
 * `3 manifest mistakes:` followed by one such line each.
 */
export class ManifestError extends Error {
  file: string;
  path: string;
  problems: ManifestProblem[];
  constructor(file: string, path: string, problem: string, more: ManifestProblem[] = []) {
    const problems = [{ file, path: path || '/', problem }, ...more];
    super(problems.length === 1 ? line(problems[0]) : `${problems.length} manifest mistakes:\n${problems.map((p) => `  ${line(p)}`).join('\n')}`);
    this.name = 'ManifestError';
    this.file = file;
    this.path = path || '/';
    this.problems = problems;
  }
}

/**
 * Runs checks one after the other and keeps the mistakes each throws, so a later check still runs after an
 * earlier one failed; `done()` throws them all as one ManifestError (nothing when none).
 */
export function problemCollector() {
  const problems: ManifestProblem[] = [];
  return {
    problems,
    run(check: () => void): void {
      try {
        check();
      } catch (error) {
        if (!(error instanceof ManifestError)) throw error;
        problems.push(...error.problems);
      }
    },
    done(): void {
      const [first, ...more] = problems;
      if (first) throw new ManifestError(first.file, first.path, first.problem, more);
    },
  };
}
