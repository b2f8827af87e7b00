// No lost update: an edit, toggle or delete may send the `updatedAt` of the record it was made from (the version
// it saw). When the stored record has moved on since, the write is refused with 409, naming who changed it and
// when, and carrying the current record so the form can offer a reload. A call without it (an old client) is
// not checked. Each write moves updatedAt strictly forward, so two writes never share a version. The check is
// part of the write: it reads the row its transaction holds locked (findByKey, caps.lockRows), so of calls sent
// at once from one version exactly one is written, and the others see its row and get the 409.
import type { Kysely } from 'kysely';
import { fieldError, staleEdit } from '../errors.ts';
import type { Engine } from '../core/context.ts';
import type { EntityModel } from '../model/model.ts';

export const VERSION_FIELD = 'updatedAt';

/** Takes the version the caller's edit was made from out of its input (undefined: an old client, no check). */
export function takeVersion(model: EntityModel, input: Record<string, unknown>): string | undefined {
  if (!model.hasColumn(VERSION_FIELD) || !(VERSION_FIELD in input)) return undefined;
  const value = input[VERSION_FIELD];
  delete input[VERSION_FIELD];
  if (typeof value !== 'string' || value.length > 40 || Number.isNaN(Date.parse(value))) {
    throw fieldError(VERSION_FIELD, `${VERSION_FIELD}: must be the record's ${VERSION_FIELD} as it was read`);
  }
  return value;
}

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

/** Refuses the write when the stored record (read locked, in the write's transaction) is not the version the caller saw. */
export async function checkVersion(engine: Pick<Engine, 'audit'>, model: EntityModel, current: Record<string, unknown>, expected: string | undefined, db: Kysely<any>) {
  if (expected === undefined) return;
  const stored = current[VERSION_FIELD];
  if (typeof stored === 'string' && Date.parse(stored) === Date.parse(expected)) return;
  const id = Number(current.id);
  const last = await engine.audit.lastChangeOf(db, model.entity, id);
  const changedAt = typeof stored === 'string' ? stored : (last?.at ?? null);
  const who = last?.email ?? 'another process';
  throw staleEdit(
    `This ${model.entity} (id ${id}) was changed by ${who}${changedAt ? ` at ${when(changedAt)}` : ''} after you opened it. Reload it to see the changes, then make yours again.`,
    { changedBy: last?.email ?? null, changedAt, record: current },
  );
}

/** The updatedAt of a write: now, or just after the stored one when the clock has not moved past it. */
export function nextVersion(current?: Record<string, unknown>): string {
  const stored = typeof current?.[VERSION_FIELD] === 'string' ? Date.parse(current[VERSION_FIELD] as string) : NaN;
  return new Date(Number.isNaN(stored) ? Date.now() : Math.max(Date.now(), stored + 1)).toISOString();
}
