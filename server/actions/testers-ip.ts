// testersIP.addArray: the IP import stores the whole list in one transaction or nothing, after checking
// every entry with the same rules the import modal uses.
import { isIpv4Cidr, withMask } from '../../overrides/ip-import/expand.ts';
import { fieldError } from '../errors.ts';
import type { ActionContext } from './index.ts';

const IMPORT_VENDORS = new Set(['samsung', 'lg']);
/** Enough named entries for a person to find the bad lines, without a megabyte-long message. */
const NAMED_PROBLEMS = 20;
/** Rows per INSERT: well under the bind-parameter limits of SQLite and PostgreSQL. */
const INSERT_BATCH = 1000;

interface ImportEntry {
  ip: string;
  vendor: string;
}

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

export async function addIpArray({ engine, db, input }: ActionContext) {
  const entries = input.ips as unknown[];
  const problems: string[] = [];
  let bad = 0;
  entries.forEach((entry, index) => {
    const problem = entryProblem(entry);
    if (problem === null) return;
    bad += 1;
    if (problems.length < NAMED_PROBLEMS) problems.push(`line ${index + 1}: ${problem}`);
  });
  if (bad > 0) {
    const more = bad > problems.length ? ` (and ${bad - problems.length} more)` : '';
    throw fieldError('ips', `ips: ${bad} bad ${bad === 1 ? 'entry' : 'entries'}, nothing stored: ${problems.join('; ')}${more}`);
  }
  const table = engine.models.get('testerIP')!.table;
  const now = new Date().toISOString();
  const rows = (entries as ImportEntry[]).map(({ ip, vendor }) => ({ ip: withMask(ip), vendor, createdAt: now, updatedAt: now }));
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await db.insertInto(table).values(rows.slice(start, start + INSERT_BATCH)).execute();
  }
  return { count: rows.length };
}
