// versions.list: every distinct value of every `format: semver` field of every stored entity, newest first.
import type { ActionContext } from './index.ts';

const parts = (v: string) => v.split('.').map(Number);

export function compareVersionsDesc(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (y[i] ?? 0) - (x[i] ?? 0);
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
