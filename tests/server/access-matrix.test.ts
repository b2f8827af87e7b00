// Generated from the manifests: every action route times every caller gets exactly the status the
// manifests imply (401 anonymous, 403 role not listed, anything but 401/403 for a listed role; a `public`
// device call lets everyone through, token or not).
import { expect, it } from 'vitest';
import { loadManifestDir } from '../../server/manifests.ts';
import type { Role } from '../../kernel/manifest/types.ts';
import { forEachDialect, ROLES } from './harness.ts';

const manifests = loadManifestDir('schemas');
const routes = manifests.flatMap((m) =>
  Object.entries(m.actions).map(([name, action]) => ({ where: `${m.entity}.actions.${name}`, ...action })),
);

it('finds a role rule on every action route of the manifests, or the public mark of a device call', () => {
  expect(routes.length).toBeGreaterThan(0);
  for (const route of routes) {
    if (route.public) expect(route.roles, `${route.where} is public and lists roles`).toEqual([]);
    else expect(route.roles?.length ?? 0, `${route.where} has no role rule`).toBeGreaterThan(0);
  }
  expect(routes.filter((r) => r.public).map((r) => `${r.method} ${r.path}`).sort()).toEqual([
    'GET /v1/combination/get',
    'POST /v1/achievedGoals/report',
    'POST /v1/appinfo/report',
  ]);
});

forEachDialect('access matrix', (h) => {
  for (const route of routes.filter((r) => r.public)) {
    for (const caller of ['an anonymous caller', ...ROLES.map((role) => `a ${role}`), 'a bad token']) {
      it(`lets ${caller} through on the public ${route.method} ${route.path}`, async () => {
        const role = ROLES.find((r) => caller === `a ${r}`);
        const token = role ? h.tokens[role] : caller === 'a bad token' ? 'not-a-token' : undefined;
        const reply = await h.call(route.method, route.path, { token });
        expect([401, 403]).not.toContain(reply.status);
        expect(reply.body.result).toBe(reply.status === 200);
      });
    }
  }
  for (const route of routes.filter((r) => !r.public)) {
    it(`refuses an anonymous caller on ${route.method} ${route.path} with 401`, async () => {
      expect((await h.call(route.method, route.path)).status).toBe(401);
    });
    for (const role of ROLES as Role[]) {
      const allowed = route.roles.includes(role);
      it(`${allowed ? 'lets' : 'refuses'} a ${role} ${allowed ? 'through' : 'with 403'} on ${route.method} ${route.path}`, async () => {
        // An empty input: an allowed caller gets past auth (200, 400 or 404), never 401/403.
        const reply = await h.call(route.method, route.path, { token: h.tokens[role] });
        if (allowed) expect([401, 403]).not.toContain(reply.status);
        else expect(reply.status).toBe(403);
        expect(reply.body.result).toBe(reply.status === 200);
      });
    }
  }
});
