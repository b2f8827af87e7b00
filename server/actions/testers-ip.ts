// testersIP.addArray: the IP import stores the whole list in one transaction or nothing, after checking every
// entry with the same rules the import modal uses. A list may hold a million entries, so none of them ever becomes
// an object on the event loop: the body's bytes go to a worker thread that parses and checks them
// (./ip-import-worker.ts), and the rows are stored from there, on SQLite by the worker's own connection (the whole
// write, audit row included: server/db/large-write.ts), on PostgreSQL as one `unnest` statement per chunk. Other
// requests (the device lookup, /healthz) are served meanwhile instead of waiting behind one import.
import { sql, type Kysely } from 'kysely';
import { AppError, fieldError } from '../errors.ts';
import { onWorkerConnection } from '../db/large-write.ts';
import type { JsonBytes } from '../core/json-bytes.ts';
import { ImportWorker, WORKER_STATEMENT_ROWS, type ParsedBody } from './ip-import-worker.ts';
import type { ActionContext, CustomHandler } from './types.ts';

/** Duplicates named in a refusal: enough to find them in the file. */
export const NAMED_DUPLICATES = 20;

/** Rows per statement where the server's connection stores them (PostgreSQL): two array parameters of this many. */
export const UNNEST_ROWS = 50_000;

/** The worker and its findings behind each stand-in list (the list itself is the key). */
const held = new WeakMap<object, { worker: ImportWorker; parsed: ParsedBody; clientGone?: AbortSignal }>();

/**
 * The entries as the input schema sees them: an array of their length whose items stay on the worker (ajv reads
 * only the list's type and length: `items` is `{}`). A proxy, since a real array of a million holes took 20-35 ms.
 */
function entriesInWorker(worker: ImportWorker, parsed: ParsedBody, clientGone?: AbortSignal): unknown[] {
  const length = parsed.length ?? 0;
  const list = new Proxy<unknown[]>([], { get: (target, key) => (key === 'length' ? length : Reflect.get(target, key)) });
  held.set(list, { worker, parsed, clientGone });
  return list;
}

/** The checked import: its worker, its size, its time, and the signal of its caller going away (Cancel). */
interface CheckedImport {
  worker: ImportWorker;
  count: number;
  now: string;
  clientGone?: AbortSignal;
}

/** A duplicate the import would store: entry `line` repeats entry `first` of the list, or an address already stored. */
export interface ImportDuplicate {
  line: number;
  ip: string;
  /** The earlier entry of the same list with this address; absent when the address was in the table before. */
  first?: number;
}

/** Throws when the caller went away: the write's transaction then rolls back, and a cancelled import stores nothing. */
function stopIfGone(engine: ActionContext['engine'], clientGone: AbortSignal | undefined) {
  if (!clientGone?.aborted) return;
  engine.log.info({ ipImport: { cancelled: true } }, 'IP import cancelled');
  throw new AppError(409, 'The import was cancelled; nothing was stored', undefined, undefined, 'ERR_REFUSED');
}

/** Hands the body to a worker; its `ips` list comes back as a stand-in, any other shape as it was sent. */
async function readImportBody(body: JsonBytes): Promise<{ input: unknown; end(): Promise<void> }> {
  const worker = new ImportWorker(body.bytes);
  const parsed = await worker.parsed.catch(async (error: unknown) => {
    await worker.close();
    throw error;
  });
  if (parsed.refused !== undefined) {
    await worker.close();
    throw body.refusal(parsed.refused);
  }
  const input = parsed.length === undefined ? parsed.top : { ...(parsed.top as object), ips: entriesInWorker(worker, parsed, body.clientGone) };
  return { input, end: () => worker.close() };
}

/** One bad entry refuses it all, naming the first ones (the worker checked them). */
async function checkIpArray({ input }: Pick<ActionContext, 'input'>): Promise<CheckedImport> {
  const entries = held.get(input.ips as object);
  // Not read on the worker: `ips` came as JSON text in a string, which the input check parsed into a list.
  if (!entries) throw fieldError('ips', 'ips must be a JSON array in the body, not text');
  const { bad = 0, problems = [], length = 0 } = entries.parsed;
  if (bad > 0) {
    const more = bad > problems.length ? ` (and ${bad - problems.length} more)` : '';
    throw fieldError('ips', `ips: ${bad} bad ${bad === 1 ? 'entry' : 'entries'}, nothing stored: ${problems.join('; ')}${more}`);
  }
  return { worker: entries.worker, count: length, now: new Date().toISOString(), clientGone: entries.clientGone };
}

/** Stores the checked rows in the write's transaction: by the worker on its own connection, or chunk by chunk. */
async function addIpArray({ engine, db, prepared }: ActionContext) {
  const { worker, count, now, clientGone } = prepared as CheckedImport;
  const table = engine.models.get('testerIP')!.table;
  const at = sql`cast(${now} as ${sql.raw(engine.caps.columnType('timestamp'))})`;
  stopIfGone(engine, clientGone);
  if (worker.hasConnection) {
    noteStored(engine, count, await worker.insertAll(table, now), WORKER_STATEMENT_ROWS);
    await refuseDuplicates(db, table, at, worker);
    stopIfGone(engine, clientGone);
    return { count };
  }
  let statements = 0;
  for (let start = 0; ; start += UNNEST_ROWS) {
    stopIfGone(engine, clientGone);
    const chunk = await worker.chunk(start, UNNEST_ROWS);
    if (!chunk) break;
    await sql`insert into ${sql.table(table)} (${sql.ref('ip')}, ${sql.ref('vendor')}, ${sql.ref('createdAt')}, ${sql.ref('updatedAt')})
      select u.ip, u.vendor, ${at}, ${at} from unnest(${chunk.ips}::text[], ${chunk.vendors}::text[]) as u(ip, vendor)`.execute(db);
    statements++;
  }
  noteStored(engine, count, statements, UNNEST_ROWS);
  await refuseDuplicates(db, table, at, worker);
  stopIfGone(engine, clientGone);
  return { count };
}

/**
 * Inside the import's transaction, once its rows are in: an address stored twice by this import (its rows carry its
 * time) or already in the list refuses the whole import, naming the first NAMED_DUPLICATES with their lines.
 */
async function refuseDuplicates(db: Kysely<any>, table: string, at: ReturnType<typeof sql>, worker: ImportWorker) {
  const t = sql.table(table);
  const { rows } = await sql<{ ip: string; fresh: number | string; total: number | string }>`
    select ${sql.ref('ip')} as ip, sum(case when ${sql.ref('createdAt')} = ${at} then 1 else 0 end) as fresh, count(*) as total
    from ${t} where ${sql.ref('ip')} in (select ${sql.ref('ip')} from ${t} where ${sql.ref('createdAt')} = ${at})
    group by ${sql.ref('ip')} having count(*) > 1 order by ${sql.ref('ip')} limit ${NAMED_DUPLICATES}`.execute(db);
  if (!rows.length) return;
  const lines = await worker.linesOf(rows.map((r) => r.ip));
  const duplicates: ImportDuplicate[] = rows
    .map((r, i) => {
      const [first, second] = lines[i];
      // Only this import's rows: its second line repeats its first; else its one line repeats a stored address.
      return Number(r.fresh) === Number(r.total) ? { line: second ?? first, ip: r.ip, first } : { line: first, ip: r.ip };
    })
    .sort((a, b) => a.line - b.line);
  const named = duplicates.map((d) => (d.first === undefined ? `line ${d.line}: ${d.ip} is already in the list` : `line ${d.line}: ${d.ip} repeats line ${d.first}`));
  const message = `ips: duplicate addresses, nothing stored: ${named.join('; ')}`;
  throw new AppError(409, message, undefined, { fields: [{ field: 'ips', message }], duplicates }, 'ERR_UNIQUE');
}

/** The server's log line of an import's insert: how many statements its rows took (one per chunk is the goal). */
function noteStored(engine: ActionContext['engine'], rows: number, statements: number, rowsPerStatement: number) {
  engine.log.info({ ipImport: { rows, statements, rowsPerStatement } }, 'IP import inserted');
}

export const addIpArrayHandler: CustomHandler = {
  write: true,
  // A 1,000,000-entry import is about 40 MB of JSON.
  bodyLimit: 64 * 1024 * 1024,
  readBody: readImportBody,
  prepare: checkIpArray,
  writeOn: async <T>({ engine, prepared }: ActionContext, transact: (db?: Kysely<any>) => Promise<T>) =>
    onWorkerConnection(engine.db, (prepared as CheckedImport).worker, await engine.caps.workerWriteFile(engine.db), engine, transact),
  run: addIpArray,
};
