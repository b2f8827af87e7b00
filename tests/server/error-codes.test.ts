// Every failure answers {result: false, message, code} with a stable code a client can branch on, and an input
// error names every bad field at once in `fields` (the message stays the first one's sentence).
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ERROR_CODES } from '../../server/error-codes.ts';
import { forEachDialect, type Reply } from './harness.ts';

const schemasDir = mkdtempSync(join(tmpdir(), 'codes-schemas-'));
cpSync('schemas', schemasDir, { recursive: true });
cpSync('tests/server/fixtures', schemasDir, { recursive: true });

type Failure = { result: false; message: string; code: string; fields?: { field: string; message: string; problem?: string; params?: object }[] };
const failure = (reply: Reply) => reply.body as unknown as Failure;

forEachDialect(
  'machine-readable errors',
  (h) => {
    const expectCode = (reply: Reply, status: number, code: keyof typeof ERROR_CODES) => {
      expect(reply.status).toBe(status);
      expect(failure(reply)).toMatchObject({ result: false, code });
      expect(typeof failure(reply).message).toBe('string');
      expect(ERROR_CODES[code].status).toBe(status);
    };

    it('names every bad field of a record at once, the message being the first one', async () => {
      const reply = await h.admin('POST', '/v1/fx/part/add', { body: { code: '', serial: 'x'.repeat(30), weight: 0, colour: 'red' } });
      expectCode(reply, 400, 'ERR_VALIDATION');
      const { fields, message } = failure(reply);
      expect(Object.fromEntries(fields!.map((f) => [f.field, f.message]))).toEqual({
        code: 'Code must not be empty',
        serial: 'Serial must be at most 20 characters long',
        weight: 'Weight must be at least 1',
        colour: 'colour is not an accepted field',
      });
      expect(message).toBe(fields![0].message);
      // The same problems as codes and values, for a client that words them in another language.
      expect(Object.fromEntries(fields!.map((f) => [f.field, [f.problem, f.params]]))).toEqual({
        code: ['notEmpty', {}],
        serial: ['maxLength', { limit: 20 }],
        weight: ['minimum', { limit: 1 }],
        colour: ['additionalProperties', {}],
      });
    });

    it('names a missing required field beside a bad one', async () => {
      const reply = await h.admin('POST', '/v1/fx/part/add', { body: { weight: 5000 } });
      expectCode(reply, 400, 'ERR_VALIDATION');
      expect(failure(reply).fields!.map((f) => f.field).sort()).toEqual(['code', 'serial', 'weight']);
    });

    it('answers ERR_UNIQUE naming both taken fields of two unique constraints in one answer', async () => {
      expect((await h.admin('POST', '/v1/fx/part/add', { body: { code: 'C-1', serial: 'S-1' } })).status).toBe(200);
      const reply = await h.admin('POST', '/v1/fx/part/add', { body: { code: 'C-1', serial: 'S-1' } });
      expectCode(reply, 409, 'ERR_UNIQUE');
      expect(failure(reply).fields).toEqual([
        { field: 'code', message: 'Code is already taken', problem: 'taken', params: {} },
        { field: 'serial', message: 'Serial is already taken', problem: 'taken', params: {} },
      ]);
      const one = await h.admin('POST', '/v1/fx/part/add', { body: { code: 'C-2', serial: 'S-1' } });
      expect(failure(one).fields).toEqual([{ field: 'serial', message: 'Serial is already taken', problem: 'taken', params: {} }]);
    });

    it('names a related record that does not exist as a bad field', async () => {
      const reply = await h.admin('POST', '/v1/fx/gadget/add', { body: { makerId: 999999 } });
      expectCode(reply, 400, 'ERR_VALIDATION');
      expect(failure(reply).fields!.map((f) => f.field)).toEqual(['makerId']);
    });

    it('answers ERR_AUTH without a token, ERR_ROLE for a role the call does not allow, ERR_NO_ROUTE for no call', async () => {
      expectCode(await h.call('GET', '/v1/admin/platform/get'), 401, 'ERR_AUTH');
      expectCode(await h.call('GET', '/v1/admin/platform/add', { token: h.tokens.tester, query: { name: 'x', maxVersion: '01.00.00' } }), 403, 'ERR_ROLE');
      expectCode(await h.admin('GET', '/v1/admin/nothing/here'), 404, 'ERR_NO_ROUTE');
      expectCode(await h.login('admin@test.io', 'wrong-password-1'), 401, 'ERR_AUTH');
    });

    it('answers ERR_NOT_FOUND, ERR_REFERENCED and ERR_CONFLICT for a lost update', async () => {
      expectCode(await h.admin('GET', '/v1/admin/platform/destroy', { query: { id: 999999 } }), 404, 'ERR_NOT_FOUND');
      const maker = (await h.admin('POST', '/v1/fx/maker/add', { body: { name: 'Used' } })).body.data.id as number;
      await h.admin('POST', '/v1/fx/gadget/add', { body: { makerId: maker } });
      expectCode(await h.admin('DELETE', '/v1/fx/maker/destroy', { query: { id: maker } }), 409, 'ERR_REFERENCED');
      const opened = (await h.admin('GET', '/v1/admin/platform/add', { query: { name: 'codes', maxVersion: '01.00.00' } })).body.data;
      await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '02.00.00', updatedAt: opened.updatedAt } });
      const stale = await h.admin('GET', '/v1/admin/platform/edit', { query: { id: opened.id, maxVersion: '03.00.00', updatedAt: opened.updatedAt } });
      expectCode(stale, 409, 'ERR_CONFLICT');
      expect((stale.body as unknown as { stale: unknown }).stale).toBeTruthy();
    });

    it('answers ERR_MALFORMED for a body that is not JSON and ERR_TOO_LARGE for one past the limit', async () => {
      const bad = await h.admin('POST', '/v1/fx/part/add', { body: '{"code":', headers: { 'content-type': 'application/json' } });
      expectCode(bad, 400, 'ERR_MALFORMED');
      const big = await h.admin('POST', '/v1/fx/part/add', { body: { code: 'x'.repeat(300 * 1024) } });
      expectCode(big, 413, 'ERR_TOO_LARGE');
    });
  },
  { config: { schemasDir } },
);

it('lists every code in the API contract and the README', async () => {
  const { readFileSync } = await import('node:fs');
  const contract = readFileSync('docs/manifests.md', 'utf8');
  const readme = readFileSync('README.md', 'utf8');
  for (const [code, { status }] of Object.entries(ERROR_CODES)) {
    expect(contract).toContain(`| \`${code}\` | ${status} |`);
    expect(readme).toContain(`\`${code}\``);
  }
});
