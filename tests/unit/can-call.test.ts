// The one access decision, canCall, on the product's manifests: declared calls by role, the refuseWhen of a
// row, the screen (route) and the menu entry, and the helpers every UI part uses asking it.
import { describe, expect, it } from 'vitest';
import { actionOfKind, allowedAction, guardScreen, menuFor } from '../../src/core/access/access';
import { callDecision, canCall, MENU, SCREEN } from '../../src/core/access/can-call';
import { manifest, manifests } from './render';

describe('canCall', () => {
  it('lets a role make exactly the calls its manifest lists it for', () => {
    const platform = manifest('platform');
    expect(canCall(platform, 'list', 'tester')).toBe(true);
    expect(canCall(platform, 'create', 'tester')).toBe(false);
    expect(canCall(platform, 'create', 'developer')).toBe(true);
    expect(canCall(platform, platform.actions.destroy, 'admin')).toBe(true);
    expect(canCall(platform, 'list', 'customercare')).toBe(false);
  });

  it('refuses without a role, and a call the manifest does not declare', () => {
    const platform = manifest('platform');
    expect(callDecision(platform, 'list', null)).toEqual({ allowed: false, reason: 'login' });
    expect(callDecision(platform, 'nosuchcall', 'admin')).toEqual({ allowed: false, reason: 'unknown' });
    expect(callDecision(platform, 'create', 'tester')).toEqual({ allowed: false, reason: 'role' });
  });

  it("with a row, refuses what the action's refuseWhen refuses, with its message", () => {
    const user = manifest('user');
    expect(canCall(user, 'destroy', 'admin', { id: 2, role: 'developer' })).toBe(true);
    expect(callDecision(user, 'destroy', 'admin', { id: 1, role: 'admin' })).toEqual({ allowed: false, reason: 'row', message: 'Admin users cannot be deleted' });
    expect(canCall(user, 'destroy', 'admin')).toBe(true);
    // The role comes first: a developer may not delete any user, admin or not.
    expect(callDecision(user, 'destroy', 'developer', { role: 'admin' })).toEqual({ allowed: false, reason: 'role' });
  });

  it('decides screens and menu entries too, as routes and the menu ask', () => {
    const user = manifest('user');
    expect(canCall(user, SCREEN, 'admin')).toBe(true);
    expect(canCall(user, SCREEN, 'developer')).toBe(false);
    expect(canCall(user, MENU, 'developer')).toBe(false);
    expect(guardScreen(user, 'admin')).toEqual({ kind: 'allow' });
    expect(guardScreen(user, 'tester')).toEqual({ kind: 'redirect', to: '/testerIP' });
    expect(guardScreen(user, undefined)).toEqual({ kind: 'login' });
    // The menu shows a screen's entry exactly when canCall(MENU) allows it.
    for (const role of ['admin', 'developer', 'tester', 'customercare'] as const) {
      const routes = JSON.stringify(menuFor(manifests().all, role));
      for (const m of manifests().all.filter((x) => x.screen?.menu)) {
        expect(routes.includes(`"route":"${m.screen!.route}"`), `${m.entity} for ${role}`).toBe(canCall(m, MENU, role));
      }
    }
  });

  it('is what allowedAction and actionOfKind ask, so buttons and forms agree with it', () => {
    for (const m of manifests().all) {
      for (const role of ['admin', 'developer', 'tester', 'customercare'] as const) {
        for (const [name, action] of Object.entries(m.actions)) {
          expect(Boolean(allowedAction(m, name, role)), `${m.entity}.${name} ${role}`).toBe(canCall(m, name, role));
          const first = Object.entries(m.actions).find(([, a]) => a.kind === action.kind)!;
          expect(Boolean(actionOfKind(m, action.kind, role))).toBe(canCall(m, first[0], role));
        }
      }
    }
  });
});
