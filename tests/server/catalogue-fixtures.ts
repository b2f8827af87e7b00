// Shared by the catalogue's server tests: valid whitelabel forms (real PNGs of the right sizes, real CSS)
// and build folders dropped the way CI does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainPng } from '../../scripts/lib/png.ts';
import type { FormFile } from './harness.ts';

export const HD = () => plainPng(1280, 720);
export const FHD = () => plainPng(1920, 1080);
export const CSS = 'body { background: #102030; }\n.logo > img { width: 100%; }\n@media (min-width: 1920px) { body { font-size: 24px; } }\n';

export const png = (content: Buffer, filename = 'logo.png'): FormFile => ({ filename, content, type: 'image/png' });
export const css = (content: string, filename = 'index.css'): FormFile => ({ filename, content, type: 'text/css' });

export function whitelabelForm(name: string, extra: Record<string, string | FormFile> = {}): Record<string, string | FormFile> {
  return {
    name,
    feUrl: `https://${name}.example.com/`,
    deployConfiguration: JSON.stringify({ region: 'eu', replicas: 2 }),
    maxVersion: '01.20.34',
    imageHD: png(HD()),
    imageFHD: png(FHD()),
    cssConfig: css(CSS),
    ...extra,
  };
}

/** Drops a build folder the way CI does: <whitelabel>/<platform>/<version>/<resolution>/<files>. */
export function dropBuild(dataDir: string, parts: [string, string, string, string], files = ['app.js', 'index.css']) {
  const dir = join(dataDir, 'builds', ...parts);
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, f), `/* ${parts.join(' ')} ${f} */`);
  return dir;
}

