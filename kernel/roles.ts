// The roles of the panel, read from schemas/roles.json (the one place they are declared): names, the home
// route a role lands on when it opens a screen it may not see, and the role of the first account.
import declared from '../schemas/roles.json' with { type: 'json' };
import type { Role } from './manifest/generated.ts';

export interface RoleDecl {
  description?: string;
  /** Where the route guard sends this role from a screen it may not open; none: the navigation is cancelled. */
  home?: string;
  /** The panel's failure notes also name the manifest file and component that failed (as a development build does). */
  failureDetails?: boolean;
}

interface RolesFile {
  firstAccount: string;
  roles: Record<string, RoleDecl>;
}

export interface RoleSet {
  /** Every role, in the order of the file. */
  names: readonly Role[];
  /** The role of the account the server creates on an empty database. */
  firstAccount: Role;
  /** { tester: '/testerIP', ... }: the home route of each role that has one. */
  homes: Partial<Record<Role, string>>;
  /** The roles whose failure notes name the manifest file and component (`failureDetails`). */
  failureDetails: readonly Role[];
}

/** Reads a roles file (schemas/roles.json, or the one of another schemas folder: the server's schemasDir). */
export function roleSet(json: unknown): RoleSet {
  const file = json as RolesFile;
  return {
    names: Object.keys(file.roles) as Role[],
    firstAccount: file.firstAccount as Role,
    homes: Object.fromEntries(Object.entries(file.roles).flatMap(([name, decl]) => (decl.home ? [[name, decl.home]] : []))),
    failureDetails: Object.entries(file.roles).flatMap(([name, decl]) => (decl.failureDetails ? [name as Role] : [])),
  };
}

/** The roles of this application's schemas/roles.json. */
export const DECLARED_ROLES: RoleSet = roleSet(declared);
export const ROLES = DECLARED_ROLES.names;
export const FIRST_ACCOUNT_ROLE = DECLARED_ROLES.firstAccount;
export const HOME_BY_ROLE = DECLARED_ROLES.homes;

const ROLE_KEYS = ['description', 'home', 'failureDetails'];

/** The roles file's own faults (a first account or home that does not fit), for the manifest checks. */
export function rolesFileProblems(json: unknown): { path: string; problem: string }[] {
  const problems: { path: string; problem: string }[] = [];
  const f = json as Partial<RolesFile> | null;
  if (!f || typeof f !== 'object' || !f.roles || typeof f.roles !== 'object' || Object.keys(f.roles).length === 0) {
    return [{ path: '/roles', problem: 'an object of at least one role is required' }];
  }
  for (const [name, decl] of Object.entries(f.roles)) {
    if (!/^[a-z][a-zA-Z0-9]*$/.test(name)) problems.push({ path: `/roles/${name}`, problem: `role name "${name}" must match ^[a-z][a-zA-Z0-9]*$` });
    for (const key of Object.keys(decl ?? {})) {
      if (!ROLE_KEYS.includes(key)) problems.push({ path: `/roles/${name}/${key}`, problem: `unknown key "${key}"; known: ${ROLE_KEYS.join(', ')}` });
    }
    if (decl?.failureDetails !== undefined && typeof decl.failureDetails !== 'boolean') {
      problems.push({ path: `/roles/${name}/failureDetails`, problem: 'must be true or false' });
    }
    if (decl?.home !== undefined && (typeof decl.home !== 'string' || !decl.home.startsWith('/'))) {
      problems.push({ path: `/roles/${name}/home`, problem: 'a home is a route starting with /' });
    }
  }
  if (typeof f.firstAccount !== 'string' || !(f.firstAccount in f.roles)) {
    problems.push({ path: '/firstAccount', problem: `must name one of the roles: ${Object.keys(f.roles).join(', ')}` });
  }
  return problems;
}
