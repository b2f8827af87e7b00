// Component tests talk to a real server: one per run, on a temporary SQLite database, with the product's
// manifests plus the engine fixtures (tests/server/fixtures). Its URL and an admin token are provided to tests.
// It runs as its own process, as `npm run serve` does: in Vitest's own process, a polling socket of a test file
// that had ended kept engine.io's 30 s close timer alive, and the run waited 10 s at its end for nothing.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from '../e2e/harness.ts';

export const COMPONENT_ADMIN = { email: 'admin@component.io', password: 'component-password-1' };

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
    adminToken: string;
    schemasDir: string;
  }
}

export default async function setup(project: TestProject) {
  const schemasRoot = mkdtempSync(join(tmpdir(), 'panel-component-'));
  const schemasDir = join(schemasRoot, 'schemas');
  cpSync('schemas', schemasDir, { recursive: true });
  cpSync('tests/server/fixtures', schemasDir, { recursive: true });
  const server = await startServer({
    SCHEMAS_DIR: schemasDir,
    DIST_DIR: join(schemasRoot, 'no-dist'),
    ADMIN_EMAIL: COMPONENT_ADMIN.email,
    ADMIN_PASSWORD: COMPONENT_ADMIN.password,
  });
  // The address it listens on, as before (the harness's URLs name localhost, for the browser files).
  project.provide('serverUrl', server.url.replace('localhost', '127.0.0.1'));
  project.provide('adminToken', await server.login(COMPONENT_ADMIN.email, COMPONENT_ADMIN.password));
  project.provide('schemasDir', resolve(schemasDir));
  return async () => {
    await server.stop();
    rmSync(schemasRoot, { recursive: true, force: true });
  };
}
