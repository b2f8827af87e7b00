// The one access decision of the panel: may this role make this call (on this row)? Buttons, menus, row
// actions, forms and routes all ask it, so the UI shows exactly what the server lets through.
import type { ActionDecl, Manifest, Role } from '../../../kernel/manifest/types.ts';
import { matches } from '../../../kernel/rules/condition.ts';

/** Pseudo-calls besides the declared actions: opening the manifest's screen (its route) and its menu entry. */
export const SCREEN = '#screen';
export const MENU = '#menu';

/** A declared action by name or by declaration, or SCREEN / MENU. */
export type Callable = string | ActionDecl;

export type CallDecision =
  | { allowed: true }
  /** No one is logged in, the role is not among the call's roles, or the manifest declares no such call. */
  | { allowed: false; reason: 'login' | 'role' | 'unknown' }
  /** The row matches the action's refuseWhen: the server would refuse it with this message. */
  | { allowed: false; reason: 'row'; message: string };

/** The row condition of manifests, one implementation for server and panel (kernel/rules/condition.ts). */
export { matches };

/** The roles that may make a call, or undefined when the manifest declares no such call. */
export function rolesOf(manifest: Manifest, call: Callable): Role[] | undefined {
  if (typeof call !== 'string') return call.roles;
  if (call === SCREEN) return manifest.screen?.roles;
  if (call === MENU) return manifest.screen?.menu ? (manifest.screen.menu.roles ?? manifest.screen.roles) : undefined;
  return manifest.actions[call]?.roles;
}

/**
 * The decision with its reason.
 * @example callDecision(users, 'destroy', 'admin', {role: 'admin'}) // {allowed: false, reason: 'row', message: '...'}
 */
export function callDecision(manifest: Manifest, call: Callable, role: Role | null | undefined, row?: Record<string, unknown>): CallDecision {
  if (!role) return { allowed: false, reason: 'login' };
  const roles = rolesOf(manifest, call);
  if (!roles) return { allowed: false, reason: 'unknown' };
  if (!roles.includes(role)) return { allowed: false, reason: 'role' };
  const action = typeof call === 'string' ? manifest.actions[call] : call;
  if (row && action?.refuseWhen && call !== SCREEN && call !== MENU && matches(row, action.refuseWhen)) {
    return { allowed: false, reason: 'row', message: action.refuseWhen.message };
  }
  return { allowed: true };
}

/**
 * canCall(platforms, 'create', 'tester') === false; with a row, the action's refuseWhen is asked too.
 * `call` is an action's name or declaration, or SCREEN / MENU for the manifest's route and menu entry.
 */
export function canCall(manifest: Manifest, call: Callable, role: Role | null | undefined, row?: Record<string, unknown>): boolean {
  return callDecision(manifest, call, role, row).allowed;
}
