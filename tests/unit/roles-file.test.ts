// Which roles see where a failure happened is declared in schemas/roles.json (`failureDetails`), not written in
// the panel's code: the roles file's flag is what the failure note reads.
import { describe, expect, it } from 'vitest';
import { DECLARED_ROLES, roleSet, rolesFileProblems } from '../../kernel/roles';

describe('failureDetails in the roles file', () => {
  it('lists the roles that declare it', () => {
    const set = roleSet({ firstAccount: 'boss', roles: { boss: {}, dev: { failureDetails: true }, ops: { failureDetails: false } } });
    expect(set.failureDetails).toEqual(['dev']);
    expect(DECLARED_ROLES.failureDetails.length).toBeGreaterThan(0);
  });

  it('is refused when not a boolean, and an unknown key names the known ones', () => {
    const problems = rolesFileProblems({ firstAccount: 'boss', roles: { boss: { failureDetails: 'yes', colour: 'red' } } });
    expect(problems).toContainEqual({ path: '/roles/boss/failureDetails', problem: 'must be true or false' });
    expect(problems).toContainEqual({ path: '/roles/boss/colour', problem: 'unknown key "colour"; known: description, home, failureDetails' });
  });
});
