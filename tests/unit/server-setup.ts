// Component tests talk to a real server: one per run, on a temporary SQLite database, with the product's
// manifests plus the engine fixtures (tests/server/fixtures). Its URL and an admin token are provided to tests.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildApp } from '../../server/app.ts';

export const COMPONENT_ADMIN = { email: 'admin@component.io', password: 'component-password-1' };

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
    adminToken: string;
    schemasDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'panel-component-'));
  const schemasDir = join(dataDir, 'schemas');
  cpSync('schemas', schemasDir, { recursive: true });
  cpSync('tests/server/fixtures', schemasDir, { recursive: true });
  const app = await buildApp({
    config: {
      dataDir,
      schemasDir,
      distDir: join(dataDir, 'no-dist'),
      adminEmail: COMPONENT_ADMIN.email,
      adminPassword: COMPONENT_ADMIN.password,
      corsOrigins: [],
      databaseUrl: undefined,
      publicUrl: undefined,
      panelHosts: undefined,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const login = await fetch(`${url}/v1/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(COMPONENT_ADMIN),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  project.provide('serverUrl', url);
  project.provide('adminToken', token);
  project.provide('schemasDir', resolve(schemasDir));
  return async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
