import { describe, expect, it } from 'vitest';
import { cleanModelNames, experimentProblems, newExperiment, removeItem } from '../../kernel/rules/experiment';

const valid = {
  whitelabelId: 1,
  platformIds: [2, 3],
  recordsCount: 10,
  probability: 0.5,
  versionsDeploymentSettings: [{ count: 4, groupName: 'A' }, { count: 6, groupName: 'B' }],
};

describe('experiment rules', () => {
  it('lets a complete experiment through', () => {
    expect(experimentProblems(valid)).toEqual([]);
  });

  it('starts a new experiment collecting, with random save, probability 1 and inactive', () => {
    expect(newExperiment()).toMatchObject({ isCollecting: true, isRandomSaveEnable: true, probability: 1, isActive: false });
    expect(experimentProblems(newExperiment()).length).toBeGreaterThan(0);
  });

  it('refuses counts that do not add up to the records count', () => {
    const problems = experimentProblems({ ...valid, recordsCount: 11 });
    expect(problems).toEqual(['Deployment: the counts add up to 10, not to the records count 11']);
  });

  it('refuses a missing whitelabel, a missing first platform and an empty or zero records count', () => {
    expect(experimentProblems({ ...valid, whitelabelId: null })[0]).toBe('Whitelabel ID is required');
    expect(experimentProblems({ ...valid, platformIds: [null, 3] })[0]).toBe('Platforms: the first platform is required');
    expect(experimentProblems({ ...valid, recordsCount: 0 })[0]).toBe('Records count must be a number other than 0');
    expect(experimentProblems({ ...valid, recordsCount: '' })[0]).toBe('Records count must be a number other than 0');
  });

  it('refuses a probability outside 0 to 1 and accepts both ends', () => {
    expect(experimentProblems({ ...valid, probability: 1.5 })).toEqual(['Probability must be between 0 and 1']);
    expect(experimentProblems({ ...valid, probability: -0.1 })).toEqual(['Probability must be between 0 and 1']);
    expect(experimentProblems({ ...valid, probability: 0 })).toEqual([]);
    expect(experimentProblems({ ...valid, probability: 1 })).toEqual([]);
  });

  it('keeps the probability rule when random save is off: the field is only disabled, its value still counts', () => {
    expect(experimentProblems({ ...valid, isRandomSaveEnable: false, probability: 0.3 })).toEqual([]);
    expect(experimentProblems({ ...valid, isRandomSaveEnable: false, probability: 1.5 })).toEqual(['Probability must be between 0 and 1']);
  });

  it('refuses files keyed by a platform that is not selected, once platform names are known', () => {
    const platformNames = new Map([[2, 'tizen'], [3, 'webos'], [4, 'androidtv']]);
    const files = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, ['bundle.js']]));
    const withFiles = (...keys: string[][]) => ({
      ...valid,
      versionsDeploymentSettings: keys.map((k, i) => ({ count: i === 0 ? 10 : 0, files: files(k) })),
    });
    expect(experimentProblems(withFiles(['tizen', 'webos'], []), { platformNames })).toEqual([]);
    expect(experimentProblems(withFiles(['tizen'], ['androidtv']), { platformNames })).toEqual([
      'Deployment: group 2 has files for "androidtv", which is not a selected platform',
    ]);
    // Without names (nothing to compare with) the keys are not judged.
    expect(experimentProblems(withFiles(['androidtv']))).toEqual([]);
    // An id without a known name stands for itself, as the form labels its file rows.
    expect(experimentProblems({ ...withFiles(['9']), platformIds: [2, 9] }, { platformNames })).toEqual([]);
  });

  it('refuses a new experiment that is active while it collects, and leaves edits alone', () => {
    const message = 'Active: a new experiment cannot be active while it collects users';
    expect(experimentProblems({ ...valid, isActive: true, isCollecting: true }, { creating: true })).toEqual([message]);
    expect(experimentProblems({ ...valid, isActive: true, isCollecting: false }, { creating: true })).toEqual([]);
    expect(experimentProblems({ ...newExperiment(), ...valid }, { creating: true })).toEqual([]);
    expect(experimentProblems({ ...valid, isActive: true, isCollecting: true })).toEqual([]);
  });

  it('trims model names and leaves one blank item when the last one is removed', () => {
    expect(cleanModelNames([' UE55 ', '', '  '])).toEqual(['UE55']);
    expect(removeItem(['only'], 0, () => '')).toEqual(['']);
    expect(removeItem(['a', 'b'], 0, () => '')).toEqual(['b']);
  });
});
