import type { ActionDecl, Manifest, Role } from '../../../kernel/manifest/types.ts';
import { HOME_BY_ROLE } from '../../../kernel/roles.ts';
import { canCall, MENU, SCREEN } from './can-call.ts';

export { canCall, callDecision, matches, MENU, SCREEN } from './can-call.ts';

/** Where a role lands when it opens a screen it may not see (SPEC 2 guard): the `home` of schemas/roles.json. */
export { HOME_BY_ROLE };

export type GuardDecision = { kind: 'allow' } | { kind: 'login' } | { kind: 'redirect'; to: string } | { kind: 'cancel' };

/** guardRoute(['admin'], 'tester') -> {kind: 'redirect', to: '/testerIP'} */
export function guardRoute(roles: Role[], role: Role | null | undefined): GuardDecision {
  if (!role) return { kind: 'login' };
  return roles.includes(role) ? { kind: 'allow' } : elsewhere(role);
}

/** The guard of a manifest's screen, asking canCall(manifest, SCREEN, role). */
export function guardScreen(manifest: Manifest, role: Role | null | undefined): GuardDecision {
  if (!role) return { kind: 'login' };
  return canCall(manifest, SCREEN, role) ? { kind: 'allow' } : elsewhere(role);
}

function elsewhere(role: Role): GuardDecision {
  const home = HOME_BY_ROLE[role];
  return home ? { kind: 'redirect', to: home } : { kind: 'cancel' };
}

/** The manifests that declare a screen, i.e. the routes of the panel. */
export function screens(manifests: readonly Manifest[]): Manifest[] {
  return manifests.filter((m) => m.screen);
}

/** Where a role lands after its login: its `home`, else `/`. */
export const homeRoute = (role: Role): string => HOME_BY_ROLE[role] || '/';

/** The manifest whose screen is at `route`, if one is. */
export function screenAt(manifests: readonly Manifest[], route: string): Manifest | undefined {
  return manifests.find((m) => m.screen?.route === route);
}

/** The manifest whose screen is the role's landing route, if one is. */
export function homeScreen(manifests: readonly Manifest[], role: Role): Manifest | undefined {
  return screenAt(manifests, homeRoute(role));
}

/** Whether the manifest's screen is the generic list screen (a list, no whole-screen override). */
export const isGenericList = (manifest: Manifest | undefined): manifest is Manifest => Boolean(manifest?.list && !manifest.screen?.override);

export interface MenuLink {
  kind: 'link';
  label: string;
  route: string;
  order: number;
}
export interface MenuGroup {
  kind: 'group';
  label: string;
  order: number;
  items: MenuLink[];
}
export type MenuEntry = MenuLink | MenuGroup;

/**
 * The menu of one role, built from `screen.menu` of every manifest: entries grouped by `menu.group` (a group
 * shows when the role sees one of its entries), ordered by `menu.order` (a group by its first entry).
 */
export function menuFor(manifests: Manifest[], role: Role): MenuEntry[] {
  const top: MenuEntry[] = [];
  const groups = new Map<string, MenuGroup>();
  for (const m of manifests) {
    const menu = m.screen?.menu;
    if (!m.screen || !menu) continue;
    if (!canCall(m, MENU, role)) continue;
    const link: MenuLink = { kind: 'link', label: menu.label, route: m.screen.route, order: menu.order ?? 1000 };
    if (!menu.group) {
      top.push(link);
      continue;
    }
    let group = groups.get(menu.group);
    if (!group) {
      group = { kind: 'group', label: menu.group, order: link.order, items: [] };
      groups.set(menu.group, group);
      top.push(group);
    }
    group.items.push(link);
    group.order = Math.min(group.order, link.order);
  }
  for (const g of groups.values()) g.items.sort((a, b) => a.order - b.order || a.label.localeCompare(b.label));
  // A dropdown holding a single entry for this role is just that entry (customercare's App Info).
  const flat = top.map((entry) => (entry.kind === 'group' && entry.items.length === 1 ? entry.items[0] : entry));
  return flat.sort((a, b) => a.order - b.order || a.label.localeCompare(b.label));
}

/** The action if `role` may call it, else undefined: the UI shows only what the server lets through. */
export function allowedAction(manifest: Manifest, name: string, role: Role | null | undefined): ActionDecl | undefined {
  const action = manifest.actions[name];
  return action && canCall(manifest, action, role) ? action : undefined;
}

/** The first action of a kind that `role` may call (`list`, `create`, `update`, `destroy` ...). */
export function actionOfKind(manifest: Manifest, kind: ActionDecl['kind'], role: Role | null | undefined): [string, ActionDecl] | undefined {
  const entry = Object.entries(manifest.actions).find(([, a]) => a.kind === kind);
  return entry && canCall(manifest, entry[1], role) ? entry : undefined;
}
