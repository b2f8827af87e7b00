// /docs: the OpenAPI document as one readable HTML page, rendered on the server. It holds no script at all and
// needs nothing from another origin, so it works under the strictest policy (only its own inline style);
// calls fold open with <details>, and every call, field, role and error code is plain, searchable text.
type Json = Record<string, any>;

const esc = (text: unknown) =>
  String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `code` spans for the backticked parts of a description, everything else escaped. */
const prose = (text: unknown) =>
  esc(text)
    .split(/\n\n+/)
    .map((p) => `<p>${p.replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
    .join('');

const refName = (ref: string) => ref.split('/').pop()!;

/** The statuses of the ErrorCode enum's description (`ERR_X` (404): ...), for a response of a range like 4XX. */
let statusOfCode = new Map<string, string>();
const statusMatches = (code: string, status: string) => !/X/i.test(status) || (statusOfCode.get(code) ?? '')[0] === status[0];

/** `1..100 chars`, `at most 2000 chars`, `at least 1`, or nothing. */
function range(min: number | undefined, max: number | undefined, unit: string): string[] {
  if (min !== undefined && max !== undefined) return [`${min}..${max}${unit}`];
  if (max !== undefined) return [`at most ${max}${unit}`];
  if (min !== undefined) return [`at least ${min}${unit}`];
  return [];
}

/** One line for a schema's type and constraints: `string, e-mail, 1..254 chars` or `→ platform`. */
function typeLine(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return `<a href="#schema-${esc(refName(schema.$ref))}">${esc(refName(schema.$ref))}</a>`;
  if (schema.anyOf) return schema.anyOf.map(typeLine).join(' or ');
  if (schema.allOf) return schema.allOf.map(typeLine).join(' and ');
  if ('const' in schema) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  if (schema.enum) return `one of ${schema.enum.map((v: unknown) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')}`;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  let text = types.length ? types.map((t: string) => (t === 'array' ? `array of ${typeLine(schema.items)}` : esc(t))).join(' or ') : 'any';
  const limits: string[] = [];
  if (schema.format) limits.push(esc(schema.format));
  if (schema.pattern) limits.push(`pattern <code>${esc(schema.pattern)}</code>`);
  limits.push(...range(schema.minLength, schema.maxLength, ' chars'));
  // The engine bounds every integer to what a number holds exactly; only a narrower bound says something.
  const safe = (n: number | undefined) => (n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined);
  limits.push(...range(safe(schema.minimum), safe(schema.maximum), ''));
  if (schema.maxItems !== undefined) limits.push(`at most ${schema.maxItems} items`);
  if (schema.default !== undefined) limits.push(`default <code>${esc(JSON.stringify(schema.default))}</code>`);
  if (limits.length) text += `, ${limits.join(', ')}`;
  return text;
}

/** The fields of an object schema as a table (nested objects inline, one level deep). */
function fieldTable(schema: Json | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return `<p>${typeLine(schema)}</p>`;
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const names = Object.keys(properties);
  if (!names.length) return `<p class="muted">${schema.type === 'object' ? 'no fields' : typeLine(schema)}</p>`;
  const required = new Set<string>(schema.required ?? []);
  const rows = names
    .map((name) => {
      const field = properties[name];
      const title = field.title && field.title !== name ? `<span class="muted">${esc(field.title)}</span>` : '';
      return `<tr><td><code>${esc(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}<br>${title}</td><td>${typeLine(field)}</td><td>${esc(field.description ?? '')}</td></tr>`;
    })
    .join('');
  return `<table><thead><tr><th>field</th><th>type</th><th>about</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function parameterTable(parameters: Json[]): string {
  const rows = parameters
    .map((p) => `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}<br><span class="muted">${esc(p.in)}</span></td><td>${p.schema ? typeLine(p.schema) : `JSON text of ${typeLine(p.content?.['application/json']?.schema)}`}</td><td>${esc(p.description ?? '')}</td></tr>`)
    .join('');
  return `<table><thead><tr><th>parameter</th><th>type</th><th>about</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The codes a failure response names: all of ErrorCode when it refers to the enum (a range of statuses). */
function codesOf(response: Json, all: string[]): string[] {
  const schema = response.content?.['application/json']?.schema;
  const code = schema?.allOf?.[1]?.properties?.code ?? schema?.properties?.code;
  return code?.enum ?? (code?.$ref ? all : []);
}

function operationBlock(path: string, method: string, op: Json, all: string[]): string {
  const roles: string[] = op['x-roles'] ?? [];
  const access = op.security?.length ? roles.map((r) => `<span class="role">${esc(r)}</span>`).join(' ') : '<span class="role public">no token</span>';
  const parts: string[] = [prose(op.description ?? '')];
  if (op.parameters?.length) parts.push(`<h4>Parameters</h4>${parameterTable(op.parameters)}`);
  if (op.requestBody) {
    const [media, body] = Object.entries(op.requestBody.content as Json)[0] as [string, Json];
    parts.push(`<h4>Body <span class="muted">${esc(media)}</span></h4>${fieldTable(body.schema)}`);
  }
  const responses = Object.entries(op.responses ?? {}) as [string, Json][];
  const ok = responses.find(([status]) => status === '200');
  if (ok) {
    const schema = ok[1].content?.['application/json']?.schema;
    const data = schema?.properties?.data ?? schema;
    parts.push(`<h4>Success <span class="muted">200, ${esc(ok[1].description)}</span></h4>${data ? (data.$ref ? `<p><code>data</code>: ${typeLine(data)}</p>` : fieldTable(data)) : ''}`);
  }
  const failures = responses.filter(([status]) => status !== '200');
  if (failures.length) {
    const rows = failures
      .map(([status, r]) => `<tr><td>${esc(status)}</td><td>${codesOf(r, all).filter((c) => statusMatches(c, status)).map((c) => `<a href="#code-${esc(c)}"><code>${esc(c)}</code></a>`).join(' ')}</td></tr>`)
      .join('');
    parts.push(`<h4>Failures</h4><table class="narrow"><thead><tr><th>status</th><th>codes</th></tr></thead><tbody>${rows}</tbody></table>`);
  }
  const id = `op-${String(op.operationId ?? `${method}-${path}`).replace(/[^\w.-]/g, '_')}`;
  return `<details id="${esc(id)}"><summary><span class="method m-${esc(method)}">${esc(method.toUpperCase())}</span> <code class="path">${esc(path)}</code> <span class="summary">${esc(op.summary ?? '')}</span> <span class="roles">${access}</span></summary><div class="body">${parts.join('')}</div></details>`;
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#5b6570;--bg:#fff;--line:#d6dbe1;--soft:#f3f5f7;--accent:#1565c0;--ok:#2e7d32;--danger:#c62828;--focus:#1565c0}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ed;--muted:#9aa5b1;--bg:#121417;--line:#2d333b;--soft:#1b1f24;--accent:#64b5f6;--ok:#81c784;--danger:#ef9a9a;--focus:#90caf9}}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:24px 32px;border-bottom:1px solid var(--line)}h1{margin:0 0 8px;font-size:24px}
.layout{display:grid;grid-template-columns:240px minmax(0,1fr);gap:0}nav{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;padding:16px;border-right:1px solid var(--line);font-size:14px}
nav a{display:block;padding:3px 6px;color:var(--fg);text-decoration:none;border-radius:4px}nav a:hover{background:var(--soft)}nav .count{color:var(--muted);float:right}
main{padding:16px 32px 64px;min-width:0}section{margin:0 0 28px}h2{font-size:19px;margin:24px 0 4px}h2+p{margin-top:0;color:var(--muted)}
h4{margin:14px 0 6px;font-size:14px}details{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:var(--bg)}
summary{cursor:pointer;padding:8px 12px;display:flex;flex-wrap:wrap;align-items:center;gap:8px}summary:hover{background:var(--soft)}
.body{padding:4px 16px 12px;border-top:1px solid var(--line)}.path{font-weight:600;word-break:break-all}.summary{color:var(--muted)}
.roles{margin-left:auto;display:flex;gap:4px;flex-wrap:wrap}.role{font-size:12px;padding:1px 7px;border-radius:10px;background:var(--soft);border:1px solid var(--line)}
.role.public{border-color:var(--ok);color:var(--ok)}.method{font:700 12px/1 ui-monospace,monospace;padding:5px 7px;border-radius:4px;color:#fff;min-width:56px;text-align:center}
.m-get{background:#1565c0}.m-post{background:#2e7d32}.m-delete{background:#c62828}.m-put{background:#8e24aa}.m-head{background:#616161}
table{border-collapse:collapse;width:100%;font-size:14px;margin:4px 0 8px}th,td{border:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}table.narrow{width:auto}code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}
.muted{color:var(--muted);font-size:13px}.req{font-size:11px;color:var(--danger);text-transform:uppercase}a{color:var(--accent)}:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
@media (max-width:1100px){.layout{grid-template-columns:1fr}nav{position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line);columns:3}}
`;

/**
 * One record of each entity, by its tag: the rows of its list call's answer (the routes carry their schemas inline,
 * so the document has no record components to read them from).
 */
function recordsOf(doc: Json): Map<string, Json> {
  const records = new Map<string, Json>();
  for (const methods of Object.values(doc.paths as Json)) {
    for (const op of Object.values(methods as Json) as Json[]) {
      const tag = op.tags?.[0];
      const row = op.responses?.['200']?.content?.['application/json']?.schema?.properties?.data?.properties?.rows?.items;
      if (tag && row?.properties && !records.has(tag)) records.set(tag, row);
    }
  }
  return records;
}

/**
 * The page of an OpenAPI document: the error codes, then every call grouped by tag (the entity), then the record
 * schemas. `/openapi.json` is linked for tools.
 */
export function docsPage(doc: Json): string {
  const errorCodes = doc.components.schemas.ErrorCode;
  statusOfCode = new Map(String(errorCodes.description).split(/\n\n/).map((l) => /^`([^`]+)` \((\d+)\)/.exec(l)).filter((m) => !!m).map((m) => [m[1], m[2]]));
  const byTag = new Map<string, string[]>();
  let calls = 0;
  for (const [path, methods] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(methods as Json)) {
      const tag = (op as Json).tags?.[0] ?? 'other';
      const list = byTag.get(tag) ?? [];
      list.push(operationBlock(path, method, op as Json, doc.components.schemas.ErrorCode.enum));
      byTag.set(tag, list);
      calls++;
    }
  }
  const tagInfo = new Map<string, string>(((doc.tags ?? []) as Json[]).map((t) => [t.name, t.description ?? '']));
  const tags = [...byTag.keys()].sort((a, b) => a.localeCompare(b));
  const nav = [
    '<a href="#errors">Error codes</a>',
    ...tags.map((t) => `<a href="#tag-${esc(t)}">${esc(t)} <span class="count">${byTag.get(t)!.length}</span></a>`),
    '<a href="#schemas">Record schemas</a>',
  ].join('');
  const codes = doc.components.schemas.ErrorCode;
  const codeRows = (codes.enum as string[])
    .map((code: string) => {
      const line = String(codes.description).split(/\n\n/).find((l: string) => l.startsWith(`\`${code}\``)) ?? '';
      const [, status, text] = /^`[^`]+` \((\d+)\): (.*)$/.exec(line) ?? [];
      return `<tr id="code-${esc(code)}"><td><code>${esc(code)}</code></td><td>${esc(status)}</td><td>${esc(text).replace(/`([^`]+)`/g, '<code>$1</code>')}</td></tr>`;
    })
    .join('');
  const sections = tags
    .map((t) => `<section id="tag-${esc(t)}"><h2>${esc(t)}</h2>${tagInfo.get(t) ? `<p>${esc(tagInfo.get(t))}</p>` : ''}${byTag.get(t)!.join('')}</section>`)
    .join('');
  const schemas = [...recordsOf(doc)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, schema]) => `<details id="schema-${esc(name)}"><summary><code class="path">${esc(name)}</code> <span class="summary">${esc(tagInfo.get(name) ?? '')}</span></summary><div class="body">${fieldTable(schema)}</div></details>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info.title)}: API docs</title><style>${STYLE}</style></head><body>
<header><h1>${esc(doc.info.title)} <span class="muted">${esc(doc.info.version)}, OpenAPI ${esc(doc.openapi)}</span></h1>${prose(doc.info.description)}
<p class="muted">${calls} calls. Machine-readable: <a href="openapi.json">/openapi.json</a>.</p></header>
<div class="layout"><nav aria-label="Contents">${nav}</nav><main>
<section id="errors"><h2>Error codes</h2><p>Every failure answers <code>{"result": false, "message", "code"}</code>; input errors add <code>fields: [{field, message}]</code> with every bad field.</p>
<table><thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead><tbody>${codeRows}</tbody></table></section>
${sections}
<section id="schemas"><h2>Record schemas</h2><p>What the calls answer for one record of each entity.</p>${schemas}</section>
</main></div></body></html>`;
}
