// A seeded generator of hostile requests for every route of the manifests: per field, values of the wrong type,
// beyond the column's range, malformed formats, NUL bytes, markup, deep JSON, JSON repeating a key; per route,
// unknown and repeated keys (in a query and in a JSON body, at its top or nested), wrong and malformed bodies
// (multipart without a boundary, unterminated, JSON 20,000 deep), HEAD, every role.
// Mixed with plausible values so that writes succeed too. The same seed gives the same requests.
import type { InjectOptions } from 'fastify';
import type { ActionDecl, FieldSchema, Manifest, Role } from '../../kernel/manifest/types.ts';
import { customHandlers } from '../../server/actions/index.ts';
import { inputSource, type InputSource } from '../../server/contract/route-schema.ts';
import { plainPng } from '../../scripts/lib/png.ts';
import { multipartBody, type FormFile } from './harness.ts';

/** mulberry32: small, fast, and the same numbers for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Route {
  entity: string;
  method: string;
  path: string;
  source: InputSource;
  roles: Role[];
  /** The call changes something: an acknowledged call has exactly one audit row. */
  writes: boolean;
  fields: Record<string, FieldSchema>;
  files: Record<string, { kind: string }>;
  /** The entity that logs in: its first accounts (the fuzzer's own) are never edited. */
  accounts: boolean;
}

const PAGING: Record<string, FieldSchema> = { page: { type: 'integer' }, pageSize: { type: 'integer' }, sortBy: { type: 'string' }, sortOrder: { enum: ['asc', 'desc'] } };

function fieldsOf(manifest: Manifest, action: ActionDecl): Record<string, FieldSchema> {
  const props = manifest.record?.properties ?? {};
  const pick = (names: string[]) => Object.fromEntries(names.filter((n) => props[n]).map((n) => [n, props[n]]));
  const key = action.key ?? ['id'];
  switch (action.kind) {
    case 'list':
    case 'destroyByFilter': {
      const filters = Object.fromEntries(
        (manifest.list?.filters ?? []).map((f) => [f.param ?? f.field, props[f.field] ?? { type: 'string' }]),
      );
      return action.kind === 'list' ? { ...PAGING, ...filters } : filters;
    }
    case 'create':
      return pick(Object.keys(props).filter((n) => !props[n].readOnly && !props[n]['x-derived']));
    case 'update':
      return { ...pick(key), ...pick(action.writable ?? Object.keys(props).filter((n) => !props[n].readOnly)), ...pick(action.locked ?? []) };
    case 'destroy':
    case 'toggle':
      return pick(key);
    case 'destroyAll':
      return {};
    case 'custom': {
      const schema = action.inputSchema as { properties?: Record<string, FieldSchema>; patternProperties?: Record<string, FieldSchema> } | undefined;
      const pattern = Object.entries(schema?.patternProperties ?? {}).map(([p, s]) => [p.replace(/[\^$]/g, ''), s]);
      return { ...(schema?.properties ?? {}), ...Object.fromEntries(pattern) };
    }
  }
}

/** Every route of the manifests, plus login and logout. */
export function routesOf(manifests: Manifest[]): Route[] {
  const routes: Route[] = manifests.flatMap((m) =>
    Object.values(m.actions).map((action) => ({
      entity: m.entity,
      method: action.method,
      path: action.path,
      source: inputSource(action),
      roles: action.roles,
      writes: action.kind === 'custom' ? !!customHandlers[action.handler!]?.write : action.kind !== 'list',
      fields: fieldsOf(m, action),
      files: inputSource(action) === 'multipart' ? (m.storage?.files ?? {}) : {},
      accounts: m.provides === 'accounts',
    })),
  );
  const auth = (path: string, fields: Record<string, FieldSchema>): Route => ({
    entity: 'session', method: 'POST', path, source: 'json', roles: [], writes: false, fields, files: {}, accounts: false,
  });
  routes.push(auth('/v1/user/login', { email: { type: 'string', format: 'email' }, password: { type: 'string' } }), auth('/v1/user/logout', {}));
  return routes;
}

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const HOSTILE_TEXT = [
  '', ' ', '\0', 'a\0b', '%', '_', '\\', '%_\\', "'; drop table users; --", '" or 1=1 --', '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>', 'line\nforged log line', '\r\n\r\nHTTP/1.1 200 OK', '\u202e\u0000\uffff', '\ud800', '😀'.repeat(50),
  '../../etc/passwd', '..\\..\\boot.ini', '$(reboot)', '{{7*7}}', '${7*7}', 'x'.repeat(201), 'x'.repeat(2001), 'x'.repeat(5000),
  'null', 'undefined', 'true', '[]', '{}', 'NaN', '-0', '١٢٣',
];
const HOSTILE_NUMBERS = [
  '0', '-1', '1.5', '2147483647', '2147483648', '-2147483649', '9007199254740993', '9223372036854775807', '9223372036854776000',
  '-9223372036854775809', '1e308', '1e309', '-1e309', '1e-400', 'NaN', 'Infinity', '0x10', '0b1', ' 1', '1 ', '+1', '01', '9'.repeat(400), 'abc', '',
];
const HOSTILE_JSON = [
  '{', '}', '[', 'null', '"text"', '1', 'true', '{}', '[]', '{"__proto__": {"polluted": 1}}', '{"constructor": {"prototype": {"x": 1}}}',
  deep(5000), deepObject(3000), deep(65), `[${'1,'.repeat(20000)}1]`, '{"a": "\\u0000"}', '[{"ip": "1.2.3.4", "vendor": "lg"}]',
  '{"name": "a", "name": "b"}', '{"a": {"b": 1, "b": 2}}', '[{"ip": "1.2.3.4", "ip": "1.2.3.5", "vendor": "lg"}]',
];
const FORMAT_VALUES: Record<string, string[]> = {
  email: ['a@', '@b', 'a@b', 'a b@c.io', `${'x'.repeat(300)}@x.io`, 'UPPER@CASE.IO'],
  ipv4: ['1.2.3', '256.1.1.1', '1.2.3.4/32', '::1', '01.2.3.4'],
  ipv4cidr: ['256.1.1.1', '1.2.3.4/33', '1.2.3.4/', '1.2.3.4/-1', '1.2.3.4/08', '0.0.0.0/0'],
  semver: ['1.2', '100.1.1', '1.2.3.4', 'v1.2.3', '01.20.34'],
  version3: ['1.2', 'a.b.c', '1.2.3-beta'],
  'date-time': ['2024-13-45T99:99:99Z', 'yesterday', '2024-01-01'],
  uri: ['javascript:alert(1)', 'http://', 'not a url', `https://x.io/${'a'.repeat(3000)}`, 'file:///etc/passwd'],
};

export interface Fixtures {
  /** Ids that exist in most tables (the target is seeded so that writes can succeed). */
  ids: number[];
  /** Ids of accounts the fuzzer may edit or delete (never its own). */
  accountIds: number[];
}

const HD = plainPng(1280, 720);
const FHD = plainPng(1920, 1080);
const CSS = 'body { color: #123456; }\n';

/** Hostile requests for `routes`, with tokens per role (anonymous: none). */
export function* hostileRequests(
  routes: Route[],
  tokens: Partial<Record<Role, string>>,
  fixtures: Fixtures,
  options: { seed: number; perRoute: number },
): Generator<{ route: Route; role: Role | 'anonymous'; request: InjectOptions }> {
  const random = seededRandom(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const chance = (p: number) => random() < p;
  let serial = 0;

  const plausible = (name: string, schema: FieldSchema, route: Route): unknown => {
    serial++;
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (schema.enum) return pick(schema.enum);
    if (name === 'id' || name.endsWith('Id')) return pick(route.accounts && name === 'id' ? fixtures.accountIds : fixtures.ids);
    if (name === 'page') return 1;
    if (name === 'pageSize') return pick([20, 50, 100]);
    if (name === 'ips') return [{ ip: `10.1.${serial % 256}.0/24`, vendor: pick(['lg', 'samsung']) }];
    if (schema['x-json'] || types.includes('array') || types.includes('object')) return types.includes('array') ? [] : { fuzz: serial };
    if (types.includes('integer')) return 1 + (serial % 5);
    if (types.includes('number')) return 0.5;
    if (types.includes('boolean')) return chance(0.5);
    switch (schema.format) {
      case 'email':
        return `fuzz${serial}@example.com`;
      case 'ipv4':
        return `10.0.${serial % 256}.1`;
      case 'ipv4cidr':
        return `10.2.${serial % 256}.0/24`;
      case 'semver':
        return `1.${serial % 99}.3`;
      case 'version3':
        return `1.2.${serial}`;
      case 'uri':
        return `https://fuzz${serial}.example.com/`;
      case 'date-time':
        return new Date().toISOString();
    }
    if (name === 'password') return `fuzz-password-${serial}`;
    if (schema.pattern) return `fuzz-${serial}`;
    return `fuzz ${serial}`;
  };

  const hostile = (schema: FieldSchema): string => {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const pools = [HOSTILE_TEXT];
    if (types.includes('integer') || types.includes('number')) pools.push(HOSTILE_NUMBERS, HOSTILE_NUMBERS);
    if (schema['x-json'] || types.includes('array') || types.includes('object')) pools.push(HOSTILE_JSON, HOSTILE_JSON);
    if (types.includes('boolean')) pools.push(['yes', 'TRUE', '2', 'on']);
    if (schema.format && FORMAT_VALUES[schema.format]) pools.push(FORMAT_VALUES[schema.format], FORMAT_VALUES[schema.format]);
    return pick(pick(pools));
  };

  /** A JSON body value: typed hostility a query string cannot carry. */
  const typedHostile = (schema: FieldSchema): unknown =>
    chance(0.5)
      ? hostile(schema)
      : pick<unknown>([
          null, true, false, 0, -1, 2147483648, 9223372036854776000, 1e308, -1e308, 0.1, [], {}, [1, 2], { a: { b: {} } }, 'x'.repeat(3000),
          // Deep enough to be refused, within a device report's 16 KiB (its goalParams reached the row conversion: a 500).
          JSON.parse(deep(2000)), JSON.parse(deepObject(2000)), JSON.parse(deepObject(65)),
        ]);

  const file = (name: string, rule: { kind: string } | undefined): FormFile => {
    if (!rule || chance(0.4)) {
      return pick<FormFile>([
        { filename: 'x.png', content: Buffer.alloc(0) },
        { filename: '../../x.png', content: HD },
        { filename: 'a\0b.png', content: HD },
        { filename: 'x.png', content: Buffer.from('<html><script>alert(1)</script></html>') },
        { filename: `${'n'.repeat(300)}.png`, content: HD },
        { filename: 'x.json', content: deep(5000) },
        { filename: 'x.json', content: '{"__proto__": {"a": 1}}' },
        { filename: 'x.css', content: Buffer.from([0xff, 0xfe, 0x00, 0x41]) },
        { filename: 'x.png', content: HD.subarray(0, 100) },
      ]);
    }
    if (rule.kind === 'json') return { filename: `${name}.json`, content: JSON.stringify({ fuzz: serial++ }), type: 'application/json' };
    if (rule.kind === 'css') return { filename: 'index.css', content: CSS, type: 'text/css' };
    return { filename: 'logo.png', content: name.includes('FHD') ? FHD : HD, type: 'image/png' };
  };

  const BROKEN_MULTIPART: { type: string; body: string }[] = [
    { type: 'multipart/form-data', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n' },
    { type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated' },
    { type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="f"; filename="a.png"\r\n\r\n\x89PNG' },
    { type: 'multipart/form-data; boundary=x', body: 'garbage without any boundary at all' },
    { type: 'multipart/form-data; boundary=x', body: '--x\r\nNo-Disposition: here\r\n\r\nvalue\r\n--x--\r\n' },
    { type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\n{}\r\n--x--\r\n' },
    { type: 'multipart/form-data; boundary=', body: '----\r\n' },
    { type: 'multipart/form-data; boundary="unclosed', body: '--unclosed\r\n' },
    { type: 'multipart/mixed; boundary=x', body: '--x--\r\n' },
  ];
  const BROKEN_BODIES: { type: string; body: string }[] = [
    { type: 'application/json', body: '{"a": ' },
    { type: 'application/json', body: '' },
    { type: 'application/json', body: '\0' },
    { type: 'application/json', body: deep(20000) },
    { type: 'application/json', body: '{"__proto__": {"x": 1}}' },
    { type: 'application/json; charset=utf-16', body: '{}' },
    { type: 'text/plain', body: 'hello' },
    { type: 'application/x-www-form-urlencoded', body: 'a=1&b=2' },
    { type: 'application/xml', body: '<a/>' },
    ...BROKEN_MULTIPART,
  ];

  for (const route of routes) {
    for (let i = 0; i < options.perRoute; i++) {
      const roll = random();
      const role: Role | 'anonymous' = roll < 0.6 ? 'admin' : roll < 0.7 ? 'anonymous' : pick(['developer', 'tester', 'customercare'] as const);
      const headers: Record<string, string> = {};
      const token = role === 'anonymous' ? undefined : tokens[role];
      if (token) headers.authorization = chance(0.97) ? token : pick([`Bearer ${token}x`, 'Bearer ', `${token}\0`, 'x'.repeat(300)]);

      // The fields: mostly plausible, some hostile, sometimes missing, sometimes an unknown or poisoned key.
      const hostility = pick([0, 0, 0.2, 0.5, 1]);
      const values: Record<string, unknown> = Object.create(null);
      for (const [name, schema] of Object.entries(route.fields)) {
        if (route.files[name] && route.source === 'multipart') continue;
        if (chance(0.15)) continue;
        values[name] = chance(hostility) ? (route.source === 'json' ? typedHostile(schema) : hostile(schema)) : plausible(name, schema, route);
      }
      if (chance(0.1)) values[pick(['unknownField', '__proto__', 'constructor', 'prototype', 'a\0b', 'id[]', 'sortBy'])] = pick(HOSTILE_TEXT);

      const url = route.path;
      const request: InjectOptions = { method: route.method as 'GET', url, headers };
      const variant = random();
      if (route.method === 'GET' && variant < 0.05) {
        request.method = 'HEAD';
        request.query = stringify(values);
      } else if (variant < 0.12) {
        // A body the call does not take, or cannot parse.
        const broken = pick(route.source === 'multipart' ? BROKEN_MULTIPART : BROKEN_BODIES);
        headers['content-type'] = broken.type;
        request.method = (route.method === 'GET' ? 'POST' : route.method) as 'POST';
        request.payload = broken.body;
      } else if (route.source === 'query') {
        const query = new URLSearchParams(Object.entries(stringify(values)));
        if (chance(0.05)) query.append(pick(Object.keys(route.fields).concat('id')), '2'); // a repeated key
        request.url = `${url}?${query.toString()}`;
      } else if (route.source === 'json') {
        headers['content-type'] = 'application/json';
        let payload = JSON.stringify(values);
        // A key repeated at the top (every field once more) or inside a value: JSON.parse would keep the last silently.
        if (chance(0.05)) payload = payload === '{}' || chance(0.5) ? payload.replace(/^\{/, '{"x": {"a": 1, "a": 2}, ').replace(', }', '}') : `${payload.slice(0, -1)},${payload.slice(1)}`;
        request.payload = payload;
      } else {
        const form: Record<string, string | FormFile> = stringify(values);
        for (const [name, rule] of Object.entries(route.files)) if (!chance(0.2)) form[name] = file(name, rule);
        if (chance(0.1)) form[pick(Object.keys(route.fields).filter((f) => !route.files[f]).concat('stray'))] = file('stray', undefined);
        const encoded = multipartBody(form);
        headers['content-type'] = encoded.contentType;
        request.payload = chance(0.05) ? encoded.payload.subarray(0, Math.floor(encoded.payload.length * random())) : encoded.payload;
      }
      yield { route, role, request };
    }
  }
}

function stringify(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}
