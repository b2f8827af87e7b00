// versions.list: every distinct value of every `format: semver` field of every stored entity, newest first.
import type { ActionContext } from './types.ts';

const parts = (v: string) => v.split('.').map(Number);

/** Dotted numeric versions, newest first; a missing part counts as 0 (`1.20` = `1.20.0`, `01.20.34` = `1.20.34`). */
export function compareVersionsDesc(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
  return 0;
}

export async function listVersions({ engine, db }: ActionContext) {
  const found = new Set<string>();
  for (const model of engine.models.values()) {
    for (const [field, schema] of Object.entries(model.props)) {
      if (schema.format !== 'semver' || !model.hasColumn(field)) continue;
      const rows = await db.selectFrom(model.table).select(field).distinct().where(field, 'is not', null).execute();
      for (const row of rows) found.add(String(row[field]));
    }
  }
  const rows = [...found].sort(compareVersionsDesc);
  return { rows, count: rows.length };
}
