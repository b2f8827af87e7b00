// The A/B experiment rules of SPEC sections 4 and 5, read by the experiment form (to enable its OK button)
// and by the server (to refuse the same input on add and edit). Pure functions, no DOM.

export interface DeploymentBlock {
  count: number | null | undefined;
  groupName?: string;
  customUrl?: string | null;
  /** platform name -> file names, e.g. {"tizen": ["bundleA.js", "styleA.css"]} */
  files?: Record<string, string[]>;
}

export interface ExperimentDraft {
  whitelabelId?: number | null;
  platformIds?: (number | null | undefined)[];
  modelNames?: string[];
  recordsCount?: number | string | null;
  isActive?: boolean;
  isCollecting?: boolean;
  isRandomSaveEnable?: boolean;
  probability?: number | string | null;
  versionsDeploymentSettings?: DeploymentBlock[];
}

/** What a new experiment starts with (SPEC section 4). */
export function newExperiment(): ExperimentDraft {
  return {
    whitelabelId: null,
    platformIds: [null],
    modelNames: [''],
    recordsCount: null,
    isActive: false,
    isCollecting: true,
    isRandomSaveEnable: true,
    probability: 1,
    versionsDeploymentSettings: [{ count: null, groupName: '', customUrl: '', files: {} }],
  };
}

/** Model names as stored: trimmed, blanks dropped. */
export function cleanModelNames(names: string[] | undefined): string[] {
  return (names ?? []).map((name) => name.trim()).filter((name) => name !== '');
}

/** Removing the last item of a list leaves one blank item rather than an empty list. */
export function removeItem<T>(items: T[], index: number, blank: () => T): T[] {
  const rest = items.filter((_, i) => i !== index);
  return rest.length === 0 ? [blank()] : rest;
}

/** What a rule needs beyond the draft. */
export interface RuleContext {
  /**
   * Names of the platforms by id, as far as they are known. Given, every block's files map must be keyed by
   * the name of a selected platform (an id without a known name stands for itself, as the form labels it).
   */
  platformNames?: ReadonlyMap<number, string>;
  /** Adding, not editing: a new experiment starts inactive, so Active together with Collecting is refused. */
  creating?: boolean;
}

/**
 * Every rule the experiment breaks, as sentences about the field (by its title in schemas/experiment.json, worded
 * like kernel/manifest/error-text.ts); empty when it may be submitted. The probability
 * is checked whether or not random save is on: the form only disables that field.
 */
export function experimentProblems(draft: ExperimentDraft, context: RuleContext = {}): string[] {
  const problems: string[] = [];
  if (!draft.whitelabelId) problems.push('Whitelabel ID is required');
  if (!draft.platformIds || !draft.platformIds[0]) problems.push('Platforms: the first platform is required');
  const records = Number(draft.recordsCount);
  const recordsGiven = draft.recordsCount !== null && draft.recordsCount !== undefined && draft.recordsCount !== '';
  if (!recordsGiven || !Number.isFinite(records) || records === 0) {
    problems.push('Records count must be a number other than 0');
  }
  const blocks = draft.versionsDeploymentSettings ?? [];
  const sum = blocks.reduce((total, block) => total + (Number(block.count) || 0), 0);
  if (recordsGiven && sum !== records) {
    problems.push(`Deployment: the counts add up to ${sum}, not to the records count ${records}`);
  }
  if (context.platformNames) {
    const names = context.platformNames;
    const selected = new Set(
      (draft.platformIds ?? []).filter((id): id is number => typeof id === 'number').map((id) => names.get(id) ?? String(id)),
    );
    blocks.forEach((block, index) => {
      for (const name of Object.keys(block.files ?? {})) {
        if (!selected.has(name)) {
          problems.push(`Deployment: group ${index + 1} has files for "${name}", which is not a selected platform`);
        }
      }
    });
  }
  const probability = Number(draft.probability);
  if (draft.probability === null || draft.probability === undefined || draft.probability === '' || !(probability >= 0 && probability <= 1)) {
    problems.push('Probability must be between 0 and 1');
  }
  if (context.creating && draft.isActive === true && draft.isCollecting === true) {
    problems.push('Active: a new experiment cannot be active while it collects users');
  }
  return problems;
}
