// Renders engine parts the way the panel does (theme, panel context, router, a fresh SWR cache), against the
// real server that server-setup.ts started. API calls for arranging data go to the same server.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { SWRConfig } from 'swr';
import { inject } from 'vitest';
import { createPanel, PanelContext } from '../../src/core/app/panel';
import { isEntityFile } from '../../kernel/manifest/files';
import { loadManifests, type ManifestSet } from '../../kernel/manifest/load';
import type { Manifest } from '../../kernel/manifest/types';
import { signIn } from '../../src/core/session/session';
import { theme } from '../../src/mui/theme';

export const serverUrl = inject('serverUrl');
export const adminToken = inject('adminToken');

let cached: ManifestSet | undefined;
/** The manifests the test server runs on: schemas/ plus the engine fixtures. */
export function manifests(): ManifestSet {
  const dir = inject('schemasDir');
  cached ??= loadManifests(
    readdirSync(dir)
      .filter(isEntityFile)
      .sort()
      .map((f) => ({ file: `schemas/${f}`, json: JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown })),
    existsSync(join(dir, 'roles.json')) ? { file: 'schemas/roles.json', json: JSON.parse(readFileSync(join(dir, 'roles.json'), 'utf8')) as unknown } : undefined,
  );
  return cached;
}

export const manifest = (entity: string): Manifest => manifests().byEntity.get(entity)!;

/** One API call as the admin; resolves to the envelope's data and throws on a failure. */
export async function api<T = any>(method: string, path: string, params: Record<string, unknown> = {}): Promise<T> {
  const query = method === 'GET' || method === 'DELETE' ? `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}` : '';
  const response = await fetch(`${serverUrl}${path}${query}`, {
    method,
    headers: { Authorization: adminToken, ...(query ? {} : { 'Content-Type': 'application/json' }) },
    body: query ? undefined : JSON.stringify(params),
  });
  const body = (await response.json()) as { result: boolean; data: T; message?: string };
  if (!body.result) throw new Error(`${path}: ${body.message}`);
  return body.data;
}

/** Renders `routes` (Route elements) logged in as the admin, starting at `path`, inside the panel's providers. */
export function renderRoutesAsAdmin(routes: ReactNode, path = '/') {
  const panel = createPanel({ backendUrl: serverUrl }, manifests());
  signIn(adminToken, { email: 'admin@component.io', role: 'admin' });
  return render(
    <ThemeProvider theme={theme}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <PanelContext.Provider value={panel}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>{routes}</Routes>
          </MemoryRouter>
        </PanelContext.Provider>
      </SWRConfig>
    </ThemeProvider>,
  );
}

/** Renders `ui` logged in as the admin, at `path` under a route `pattern`. */
export function renderAsAdmin(ui: ReactNode, { path = '/', pattern = '/' }: { path?: string; pattern?: string } = {}) {
  return renderRoutesAsAdmin(<Route path={pattern} element={ui} />, path);
}
