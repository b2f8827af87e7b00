// CSV export of a list screen's current view: every row its filters and sort match, not only one page, streamed
// in keyset batches so the server's memory stays flat at any row count and no query holds the connection long.
import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BEFORE_ROUTES } from '../core/plugin-tree.ts';
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { ActionDecl, ColumnDecl, FieldSchema, Manifest } from '../../kernel/manifest/types.ts';
import { requireRoles } from '../plugins/auth.ts';
import type { Engine } from '../core/context.ts';
import type { EntityModel } from '../model/model.ts';
import { routeValidation } from '../core/input.ts';
import { applyFilters, filterParams, listOrder, requireScopes } from './kinds/filters.ts';
import { listRules } from './kinds/input-rules.ts';
import { columnRef, present, selectRows } from '../core/rows.ts';
import { exportSchemaOf } from '../contract/system-routes.ts';

/** Rows per query: large enough that 1M rows are a few hundred short queries, small enough to stay flat in memory. */
export const EXPORT_BATCH = 2000;

/** The export's path beside its list call: `/v1/admin/platform/get` -> `/v1/admin/platform/get/export.csv`. */
export const exportPathOf = (listPath: string) => `${listPath}/export.csv`;

/**
 * Where a spreadsheet could start a cell: the field's start, and after any delimiter it may read the file with
 * (`,`, `;` as Excel does in Russian and other locales, tab) or a line break, past quotes and spaces.
 */
const CELL_START = /(^|[,;\t\r\n])([\s"]*)(?=[=+\-@])/g;

/**
 * One CSV field (RFC 4180): quoted when it holds a delimiter a spreadsheet may use (`,` `;` tab), a quote or a line
 * break, quotes doubled. Text a spreadsheet would run as a formula gets an apostrophe wherever a cell could start
 * with it: before a leading = + - @ (or a leading tab or CR), and after a `,` `;` tab or line break inside the text
 * that precedes one, since a file read with another delimiter than `,` splits the field there.
 * @example csvField('=SUM(A1)') // "'=SUM(A1)"
 * @example csvField('a;=SUM(A1)') // "\"a;'=SUM(A1)\""
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string') {
    text = text.replace(CELL_START, "$1$2'");
    if (/^[\t\r]/.test(text)) text = `'${text}`;
  }
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields: (string | number)[]) => `${fields.map(csvField).join(',')}\r\n`;

function valueAt(row: Record<string, unknown>, path: string): unknown {
  let value: unknown = row;
  for (const part of path.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** A value as the list cell shows it: yes/no, JSON as text, dates as ISO 8601 (a file has no reader's locale). */
function shown(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `cell: "lookup"` columns: the ids shown as `id — label` of the records `form.ui.<field>.lookup` names. */
async function lookupLabels(engine: Pick<Engine, 'db' | 'models'>, manifest: Manifest, columns: ColumnDecl[]) {
  const labels = new Map<string, Map<string, string>>();
  for (const column of columns) {
    const target = column.cell === 'lookup' ? engine.models.get(manifest.form?.ui?.[column.field]?.lookup ?? '') : undefined;
    if (!target) continue;
    const labelField = target.manifest.recordLabel ?? (target.hasColumn('name') ? 'name' : 'id');
    const rows = await engine.db.selectFrom(target.table).select(labelField === 'id' ? ['id'] : ['id', labelField]).limit(10_000).execute();
    labels.set(column.field, new Map(rows.map((r) => [String(r.id), labelField === 'id' || r[labelField] == null ? String(r.id) : `${r.id} — ${r[labelField]}`])));
  }
  return labels;
}

interface Order {
  ref: string;
  direction: 'asc' | 'desc';
}

/**
 * The rows after the last one sent, in the list's own order (`ref direction, id direction`: id breaks ties the
 * same way), NULLs where the dialect puts them: a keyset walk, so each batch is one indexed query however deep
 * into the list it is.
 */
function after(engine: Pick<Engine, 'caps'>, order: Order | null, last: { key: unknown; id: number }) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    const id = eb.ref('t.id');
    if (!order) return eb(id, '>', last.id);
    const onward = order.direction === 'asc' ? '>' : '<';
    const key = eb.ref(order.ref);
    if (order.ref === 't.id') return eb(id, onward, last.id);
    // NULLs come after the values when they sort high and the order ascends, or sort low and it descends.
    const nullsAfter = engine.caps.nullsSortHigh === (order.direction === 'asc');
    if (last.key === null || last.key === undefined) {
      const sameNull = eb.and([eb(key, 'is', null), eb(id, onward, last.id)]);
      return nullsAfter ? sameNull : eb.or([sameNull, eb(key, 'is not', null)]);
    }
    const beyond = eb(key, onward, last.key);
    const tie = eb.and([eb(key, '=', last.key), eb(id, onward, last.id)]);
    return eb.or(nullsAfter ? [beyond, tie, eb(key, 'is', null)] : [beyond, tie]);
  };
}

/**
 * Registers `GET <list path>/export.csv` for every list call: the same filter and sort parameters (page and
 * pageSize are ignored), exactly the list call's roles, one users-log row per export.
 */
export function registerCsvExports(app: FastifyInstance, engine: Pick<Engine, 'audit' | 'caps' | 'db' | 'models'>, manifests: Manifest[]): void {
  for (const manifest of manifests) {
    const model = engine.models.get(manifest.entity);
    for (const [name, action] of Object.entries(manifest.actions)) {
      if (action.kind === 'list' && model && manifest.list?.columns?.length) registerExport(app, engine, manifest, model, name, action);
    }
  }
}

function registerExport(app: FastifyInstance, engine: Pick<Engine, 'audit' | 'caps' | 'db' | 'models'>, manifest: Manifest, model: EntityModel, name: string, action: ActionDecl) {
  const list = manifest.list!;
  const columns = list.columns!;
  const filters = filterParams(engine, model);
  const path = exportPathOf(action.path);
  const titles = columns.map((c) => c.label ?? (model.props[c.field] as FieldSchema | undefined)?.title ?? c.field);

  app.route({
    method: 'GET',
    url: path,
    schema: exportSchemaOf(manifest, name),
    // The list's parameters, checked by Fastify as the list's are; page, pageSize and after are accepted and ignored.
    validatorCompiler: routeValidation(listRules(engine, model, 'ignore')).compiler,
    // A HEAD would run the export and log it without anyone getting the file.
    exposeHeadRoute: false,
    onRequest: requireRoles(action.roles),
    handler: async (request, reply) => {
      const input = request.query as Record<string, unknown>;
      await requireScopes(engine, model, filters, input);
      const chosen = listOrder(list, input);
      const order: Order | null = chosen ? { ref: columnRef(engine, model, chosen.field).ref, direction: chosen.direction ?? 'asc' } : null;
      const used = Object.fromEntries(filters.filter((f) => input[f.param] !== undefined && input[f.param] !== '').map((f) => [f.param, input[f.param]]));
      const detail = `CSV export of ${manifest.entity}.${name}; filters ${JSON.stringify(used)}; sort ${chosen ? `${chosen.field} ${chosen.direction ?? 'asc'}` : 'none'}`;
      const user = request.user!;
      await engine.db.transaction().execute((trx) => engine.audit.write(trx, user, path, { entity: manifest.entity, detail }));
      const labels = await lookupLabels(engine, manifest, columns);

      const base = applyFilters(engine, filters, input, selectRows(engine, model)).query.select([
        sql.ref('t.id').as('__id'),
        ...(order ? [sql.ref(order.ref).as('__key')] : []),
      ]);
      const toLine = (row: Record<string, unknown>) => {
        const out = present(engine, model, row);
        return csvLine(
          columns.map((c) => {
            const value = valueAt(out, c.field);
            const map = labels.get(c.field);
            if (map) return (Array.isArray(value) ? value : value == null ? [] : [value]).map((id) => map.get(String(id)) ?? String(id)).join(', ');
            const text = shown(value);
            return c.prefixField ? [shown(valueAt(out, c.prefixField)), text].filter((v) => v !== '').join(' ') : text;
          }),
        );
      };
      async function* lines() {
        yield `\ufeff${csvLine(titles)}`;
        let last: { key: unknown; id: number } | null = null;
        for (;;) {
          let query = last ? base.where(after(engine, order, last)) : base;
          if (order) query = query.orderBy(order.ref, order.direction);
          const rows: Record<string, unknown>[] = await query.orderBy('t.id', order?.direction ?? 'asc').limit(EXPORT_BATCH).execute();
          if (rows.length) yield rows.map(toLine).join('');
          if (rows.length < EXPORT_BATCH) return;
          const tail = rows[rows.length - 1];
          last = { key: tail.__key, id: Number(tail.__id) };
          // better-sqlite3 answers on the event loop: let other requests in between batches.
          await yieldToLoop();
        }
      }
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${manifest.entity}-${stamp}.csv"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(lines(), { objectMode: false, highWaterMark: 64 * 1024 }));
    },
  });
}

/** The `exports` plugin: `<list path>/export.csv` beside each list call of `crud`. */
export const exportsPlugin = fp(
  async (app: FastifyInstance, options: { listCountLimit?: number }) => {
    const context: ExportContext = { db: app.db, caps: app.caps, models: app.models, audit: app.audit, changes: app.changes, reads: app.reads, listCountLimit: options.listCountLimit };
    registerCsvExports(app, context, app.manifests);
  },
  {
    name: 'exports',
    dependencies: ['db', 'audit', 'changes', 'auth', 'crud', ...BEFORE_ROUTES],
    decorators: { fastify: ['db', 'caps', 'reads', 'models', 'audit', 'changes', 'manifests'] },
    fastify: '5.x',
  },
);

/** What the exports use of the server. */
type ExportContext = Pick<Engine, 'db' | 'caps' | 'models' | 'audit' | 'changes' | 'reads' | 'listCountLimit'>;
