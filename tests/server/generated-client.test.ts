// The contract as a new user meets it: types generated from the running server's /openapi.json with
// openapi-typescript, a client written with openapi-fetch (tests/generated-client/client.ts) type-checked against
// them with tsc, then run against the server. Every answer of the run must validate against the response schema
// the document gives its call, and must reach the client whole: a field a handler answers that its schema does not
// list would be dropped by the serializer, so each answer is also compared with what its handler returned.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual, promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import type { RouteOptions, preSerializationAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';
import { CUSTOM_FORMATS } from '../../kernel/rules/formats.ts';
import { ADMIN, forEachDialect } from './harness.ts';
import { dropBuild, whitelabelForm } from './catalogue-fixtures.ts';

const GENERATED = '.tmp/generated-client/api.ts';
// Imported once its types are generated: the client's types come from the file this test writes, so the project's
// own type check (which runs before any server test) must not follow a static import into it.
const CLIENT = '../generated-client/client.ts';
type RunClient = (baseUrl: string, email: string, password: string, whitelabel: string) => Promise<{ added: Record<string, unknown> }>;

interface Answer {
  method: string;
  route: string;
  status: number;
  body: unknown;
}

/** Every answer the server sends, and every one whose serialized form differs from what its handler returned. */
const answers: Answer[] = [];
const lost: { route: string; handler: unknown; sent: unknown }[] = [];
const returned = new WeakMap<object, unknown>();

const keep: preSerializationAsyncHookHandler = async (request, _reply, payload) => {
  returned.set(request, JSON.parse(JSON.stringify(payload)));
  return payload;
};
const compare: onSendAsyncHookHandler = async (request, reply, payload) => {
  if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
  const body = JSON.parse(payload);
  const route = request.routeOptions.url ?? request.url;
  answers.push({ method: request.method, route, status: reply.statusCode, body });
  if (returned.has(request) && !isDeepStrictEqual(returned.get(request), body)) lost.push({ route, handler: returned.get(request), sent: body });
  return payload;
};
const watch = (route: RouteOptions) => {
  if (!route.url?.startsWith('/v1/')) return;
  const list = <T>(hook: T | T[] | undefined): T[] => (Array.isArray(hook) ? hook : hook ? [hook] : []);
  route.preSerialization = [...list(route.preSerialization), keep] as RouteOptions['preSerialization'];
  route.onSend = [...list(route.onSend), compare] as RouteOptions['onSend'];
};

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };

/** The response schema of an answer: its status's, or its range's (4XX). */
function responseSchema(doc: Doc, answer: Answer): object | undefined {
  const path = answer.route.replace(/:(\w+)/g, '{$1}');
  const responses = doc.paths[path]?.[answer.method.toLowerCase()]?.responses;
  const response = responses?.[String(answer.status)] ?? responses?.[`${String(answer.status)[0]}XX`];
  return response?.content?.['application/json']?.schema;
}

forEachDialect(
  'generated client',
  (h) => {
    it('generates types from /openapi.json, type-checks a client against them and runs it: every answer as its schema says', async () => {
      await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm('aurora') });
      dropBuild(h.app.engine.dataDir, ['aurora', 'tizen', '1.20.34', '1080p']);
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;

      const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Doc;
      mkdirSync('.tmp/generated-client', { recursive: true });
      writeFileSync(GENERATED, astToString(await openapiTS(doc as never)));
      const tsc = await promisify(execFile)('npx', ['tsc', '-p', 'tests/generated-client/tsconfig.json'], { encoding: 'utf8' }).catch((error: { stdout: string }) => error);
      expect(tsc.stdout).toBe('');

      answers.length = 0;
      lost.length = 0;
      const { runClient } = (await import(/* @vite-ignore */ CLIENT)) as { runClient: RunClient };
      const run = await runClient(baseUrl, ADMIN.email, ADMIN.password, 'aurora');
      expect(Object.keys(run.added).length).toBeGreaterThanOrEqual(6);
      expect(run).toMatchObject({ matchedBy: 'device', lookupUrls: ['https://cdn.example.com/app.js'], appinfoCreated: true, stuckingCount: 0 });

      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      for (const [name, pattern] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, pattern);
      const compiled = new Map<object, ValidateFunction>();
      const invalid: { route: string; status: number; errors: unknown }[] = [];
      for (const answer of answers) {
        const schema = responseSchema(doc, answer);
        if (!schema) throw new Error(`${answer.method} ${answer.route} ${answer.status}: no response schema`);
        const validate = compiled.get(schema) ?? ajv.compile(schema);
        compiled.set(schema, validate);
        if (!validate(answer.body)) invalid.push({ route: answer.route, status: answer.status, errors: validate.errors });
      }
      expect(answers.length).toBeGreaterThan(30);
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(invalid).toEqual([]);
      expect(lost).toEqual([]);
    }, 60_000);
  },
  { onRoute: watch },
);
