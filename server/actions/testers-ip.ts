// testersIP.addArray: the IP import stores the whole list in one transaction or nothing, after checking
// every entry with the same rules the import modal uses. A list may hold a million entries: it is checked
// before the transaction opens and stored with one multi-row INSERT per chunk, as large as the database's
// bind-parameter limit allows, and the work pauses for the event loop between slices, so other requests
// (the device lookup, /healthz) are served meanwhile instead of waiting seconds behind one import.
import type { Kysely } from 'kysely';
import { isIpv4Cidr, withMask } from '../../kernel/rules/ip.ts';
import { fieldError } from '../errors.ts';
import type { ActionContext } from './types.ts';

const IMPORT_VENDORS = new Set(['samsung', 'lg']);
/** Enough named entries for a person to find the bad lines, without a megabyte-long message. */
const NAMED_PROBLEMS = 20;
/** Entries checked between two pauses for the event loop (about 10 ms of work). */
const CHECK_SLICE = 20_000;
/** Rows per INSERT at most: more rows per statement only holds the event loop longer (SQLite runs it there: 2,500 rows took 40-170 ms on this busy machine). */
const MAX_STATEMENT_ROWS = 1_000;

type ImportRow = Record<'ip' | 'vendor' | 'createdAt' | 'updatedAt', string>;

/** Lets timers and other requests' I/O run before the next slice of work. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The problem of one entry, or null when it may be stored. */
function entryProblem(entry: unknown): string | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'must be an object {ip, vendor}';
  const extra = Object.keys(entry).find((key) => key !== 'ip' && key !== 'vendor');
  if (extra !== undefined) return `${extra}: is not an accepted field`;
  const { ip, vendor } = entry as Record<string, unknown>;
  if (typeof ip !== 'string' || !isIpv4Cidr(ip)) return `ip ${JSON.stringify(ip)} is not an IPv4 address with an optional /mask of 0-32`;
  if (typeof vendor !== 'string' || !IMPORT_VENDORS.has(vendor)) return `vendor ${JSON.stringify(vendor)} must be samsung or lg`;
  return null;
}

/** The checked entries of an import and its time; each becomes a row only when its statement is built. */
interface CheckedImport {
  entries: { ip: string; vendor: string }[];
  now: string;
}

/**
 * Checks every entry (in slices); one bad entry refuses it all, naming the first ones. The rows are made per
 * statement later, not here: a million row objects kept alive at once only made the garbage collector's pauses longer.
 */
export async function checkIpArray({ input }: Pick<ActionContext, 'input'>): Promise<CheckedImport> {
  const entries = input.ips as unknown[];
  const problems: string[] = [];
  let bad = 0;
  for (let start = 0; start < entries.length; start += CHECK_SLICE) {
    if (start > 0) await pause();
    for (let index = start; index < Math.min(start + CHECK_SLICE, entries.length); index++) {
      const entry = entries[index];
      const problem = entryProblem(entry);
      if (problem === null) continue;
      bad += 1;
      if (problems.length < NAMED_PROBLEMS) problems.push(`line ${index + 1}: ${problem}`);
    }
  }
  if (bad > 0) {
    const more = bad > problems.length ? ` (and ${bad - problems.length} more)` : '';
    throw fieldError('ips', `ips: ${bad} bad ${bad === 1 ? 'entry' : 'entries'}, nothing stored: ${problems.join('; ')}${more}`);
  }
  return { entries: entries as CheckedImport['entries'], now: new Date().toISOString() };
}

/**
 * Inserts items with one multi-row statement per chunk: as many rows as the bind-parameter limit allows
 * (SQLite 32,766 per statement, PostgreSQL 65,535), at most MAX_STATEMENT_ROWS, pausing between statements.
 * `toRow` makes each item's row when its statement is built. Answers the number of statements.
 */
export async function insertInChunks<T>(
  db: Kysely<any>,
  table: string,
  items: readonly T[],
  maxParameters: number,
  toRow: (item: T) => Record<string, unknown> = (item) => item as Record<string, unknown>,
): Promise<number> {
  if (!items.length) return 0;
  const perStatement = Math.max(1, Math.min(MAX_STATEMENT_ROWS, Math.floor(maxParameters / Object.keys(toRow(items[0])).length)));
  let statements = 0;
  for (let start = 0; start < items.length; start += perStatement) {
    if (start > 0) await pause();
    await db.insertInto(table).values(items.slice(start, start + perStatement).map(toRow)).execute();
    statements++;
  }
  return statements;
}

/** Stores the checked rows in the write's transaction; on SQLite the checkpoint after its commit runs off the event loop (server/db/large-write.ts). */
export async function addIpArray({ engine, db, prepared }: ActionContext) {
  const { entries, now } = prepared as CheckedImport;
  const toRow = ({ ip, vendor }: CheckedImport['entries'][number]): ImportRow => ({ ip: withMask(ip), vendor, createdAt: now, updatedAt: now });
  const large = await engine.caps.largeWrite(db, engine.db);
  try {
    await insertInChunks(db, engine.models.get('testerIP')!.table, entries, engine.caps.maxParameters, toRow);
  } finally {
    large.done();
  }
  return { count: entries.length };
}
