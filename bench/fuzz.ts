// The long fuzzer run (the bounded one is in tests/server/fuzz.test.ts): every route, hostile values, every
// role, on SQLite and PostgreSQL; prints the answers by status, the 5xx count and every problem found.
//   npm run bench fuzz [perRoute] [seed]     e.g. npm run bench fuzz 400 7 (about 740 per route: 50,000 requests a dialect)
import { loadManifestDir } from '../server/manifests.ts';
import { ADMIN, DIALECTS, ROLES, emailOf, passwordOf, startApp } from '../tests/server/harness.ts';
import { runFuzz, seedFuzzTarget } from '../tests/server/fuzz-target.ts';
import type { Role } from '../kernel/manifest/types.ts';

export async function fuzz(perRoute = 200, seed = Date.now() % 1_000_000): Promise<void> {
  const manifests = loadManifestDir('schemas');
  for (const dialect of DIALECTS) {
    const { app, cleanup } = await startApp(dialect, { log: () => {} });
    try {
      const login = async (email: string, password: string) =>
        (await app.inject({ method: 'POST', url: '/v1/user/login', payload: { email, password } })).json().data.token as string;
      const tokens: Partial<Record<Role, string>> = { admin: await login(ADMIN.email, ADMIN.password) };
      for (const role of ROLES.filter((r) => r !== 'admin')) {
        await app.inject({ url: `/v1/admin/user/add?email=${emailOf(role)}&password=${passwordOf(role)}&role=${role}`, headers: { authorization: tokens.admin! } });
        tokens[role] = await login(emailOf(role), passwordOf(role));
      }
      const fixtures = await seedFuzzTarget(app, tokens.admin!);
      const started = performance.now();
      const run = await runFuzz(app, manifests, tokens, fixtures, { seed, perRoute });
      const seconds = (performance.now() - started) / 1000;
      console.log(`fuzz (${dialect}, seed ${seed}, ${perRoute} per route): ${run.count} requests in ${seconds.toFixed(0)} s, ${run.acknowledgedWrites} acknowledged writes`);
      console.log(`  answers by status: ${Object.entries(run.statuses).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
      console.log(`  5xx answers: ${run.faults} (besides the pipeline calls' 503 without a GitLab)`);
      console.log(`  problems: ${run.problems.length}`);
      for (const problem of run.problems.slice(0, 30)) console.log(`    ${problem}`);
    } finally {
      await app.close();
      await cleanup();
    }
  }
}
