// The A/B experiment rules of SPEC sections 4 and 5, read by the experiment form (to enable its OK button)
// and by the server (to refuse the same input on add and edit). Pure functions, no DOM.
import { english, type Wording } from '../manifest/error-text.ts';

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

/** The sentence of each rule an experiment can break, in English (a client passes its own wording of these). */
export const EXPERIMENT_RULE_TEXT = {
  whitelabel: 'Whitelabel ID is required',
  firstPlatform: 'Platforms: the first platform is required',
  recordsCount: 'Records count must be a number other than 0',
  countsSum: 'Deployment: the counts add up to {sum}, not to the records count {records}',
  filesPlatform: 'Deployment: group {n} has files for "{platform}", which is not a selected platform',
  probability: 'Probability must be between 0 and 1',
  activeCollecting: 'Active: a new experiment cannot be active while it collects users',
} as const;

/**
 * Every rule the experiment breaks, as sentences about the field (by its title in schemas/experiment.json, worded
 * like kernel/manifest/error-text.ts, in the language of `word`); empty when it may be submitted. The probability
 * is checked whether or not random save is on: the form only disables that field.
 */
export function experimentProblems(draft: ExperimentDraft, context: RuleContext = {}, word: Wording = english): string[] {
  const problems: string[] = [];
  const say = (rule: keyof typeof EXPERIMENT_RULE_TEXT, params?: Record<string, unknown>) => problems.push(word(EXPERIMENT_RULE_TEXT[rule], params));
  if (!draft.whitelabelId) say('whitelabel');
  if (!draft.platformIds || !draft.platformIds[0]) say('firstPlatform');
  const records = Number(draft.recordsCount);
  const recordsGiven = draft.recordsCount !== null && draft.recordsCount !== undefined && draft.recordsCount !== '';
  if (!recordsGiven || !Number.isFinite(records) || records === 0) say('recordsCount');
  const blocks = draft.versionsDeploymentSettings ?? [];
  const sum = blocks.reduce((total, block) => total + (Number(block.count) || 0), 0);
  if (recordsGiven && sum !== records) say('countsSum', { sum, records });
  if (context.platformNames) {
    const names = context.platformNames;
    const selected = new Set(
      (draft.platformIds ?? []).filter((id): id is number => typeof id === 'number').map((id) => names.get(id) ?? String(id)),
    );
    blocks.forEach((block, index) => {
      for (const name of Object.keys(block.files ?? {})) if (!selected.has(name)) say('filesPlatform', { n: index + 1, platform: name });
    });
  }
  const probability = Number(draft.probability);
  if (draft.probability === null || draft.probability === undefined || draft.probability === '' || !(probability >= 0 && probability <= 1)) say('probability');
  if (context.creating && draft.isActive === true && draft.isCollecting === true) say('activeCollecting');
  return problems;
}
