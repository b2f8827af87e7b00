// Shared by the catalogue's e2e files: whitelabels created through the real multipart call, build folders
// dropped the way CI does, and screenshots when SHOTS_DIR is set (for looking at every screen).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { plainPng } from '../../scripts/lib/png.ts';
import type { RunningServer } from './harness';

export const CSS = 'body { background: #102030; color: #fff; }\n';

export async function addWhitelabel(server: RunningServer, token: string, name: string): Promise<number> {
  const form = new FormData();
  form.append('name', name);
  form.append('feUrl', `https://${name}.example.com/`);
  form.append('deployConfiguration', JSON.stringify({ region: 'eu', replicas: 2, note: 'a deploy configuration longer than fifty characters' }));
  form.append('imageHD', new Blob([new Uint8Array(plainPng(1280, 720))], { type: 'image/png' }), 'hd.png');
  form.append('imageFHD', new Blob([new Uint8Array(plainPng(1920, 1080))], { type: 'image/png' }), 'fhd.png');
  form.append('cssConfig', new Blob([CSS], { type: 'text/css' }), 'index.css');
  const res = await fetch(`${server.url}/v1/admin/whitelabel/add`, { method: 'POST', headers: { Authorization: token }, body: form });
  const body = (await res.json()) as { result: boolean; data: { id: number }; message?: string };
  if (!body.result) throw new Error(`whitelabel ${name}: ${body.message}`);
  return body.data.id;
}

export function dropBuild(server: RunningServer, parts: [string, string, string, string]): void {
  const dir = join(server.dataDir, 'builds', ...parts);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.js'), `console.log(${JSON.stringify(parts.join(' '))});\n`);
}

/** Writes device-reported rows (app info, collection users) straight into the server's SQLite file, as no panel call does. */
export function insertRows(server: RunningServer, table: string, rows: Record<string, unknown>[]): void {
  const db = new Database(join(server.dataDir, 'panel.sqlite'));
  try {
    const columns = Object.keys(rows[0]);
    const statement = db.prepare(`insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`);
    for (const row of rows) statement.run(...columns.map((c) => row[c]));
  } finally {
    db.close();
  }
}

/** Saves a screenshot under SHOTS_DIR when it is set; a no-op otherwise. */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** Shows a list column that gave way to the screen's key columns (list.columns[].priority) through the column chooser. */
export async function showColumn(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /columns/i }).first().click();
  const choice = page.getByRole('checkbox', { name, exact: true });
  if (!(await choice.isChecked())) await choice.click();
  await page.keyboard.press('Escape');
  await page.getByRole('columnheader', { name, exact: true }).waitFor();
}
