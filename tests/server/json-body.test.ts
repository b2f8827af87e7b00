// Large JSON bodies are parsed in slices (server/plugins/json-body.ts): the same value as JSON.parse, the same
// refusals (bad JSON, prototype poisoning) as a small body, whatever the nesting.
import { expect, it } from 'vitest';
import { parseInSlices } from '../../server/plugins/json-body.ts';
import { forEachDialect } from './harness.ts';

const samples = [
  '[]',
  '{}',
  ' [1, 2, 3] ',
  '{"a": [1, {"b": "x,y]}"}, "c\\"d"], "e": {"f": [[], {}, [[1]]]}, "g": null, "h": true}',
  '[{"ip": "10.0.0.1", "vendor": "lg"}, {"ip": "10.0.0.2/24", "vendor": "samsung"}, "a \\\\", "\\u00e9,]"]',
  '\ufeff{"ips": [' + Array.from({ length: 200 }, (_, i) => `{"ip": "1.2.3.${i % 256}", "n": ${i}, "s": "[{,}]"}`).join(', ') + ']}',
  '{"big": ' + JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ list: Array.from({ length: 20 }, (_, j) => i * j), text: 'x'.repeat(i) }))) + ', "z": 1}',
];

it('gives what JSON.parse gives, with slices far smaller than the members', async () => {
  for (const text of samples) {
    for (const slice of [8, 64, 1000]) {
      expect(await parseInSlices(text, JSON.parse, slice)).toEqual(JSON.parse(text.replace(/^\ufeff/, '')));
    }
  }
});

it.each(['[1,,2]', '[1, 2,]', '{"a": 1,}', '[1, 2', '[1, 2]]', '{"a" 1, "b": 2}', '[1, "open]', '{"a": [1, 2}, "b": 3}', '[1, 2] [3]'])(
  'refuses the bad JSON %s, whatever the slice',
  async (text) => {
    for (const slice of [2, 4, 1000]) await expect(parseInSlices(text, JSON.parse, slice)).rejects.toThrow();
  },
);

forEachDialect('large JSON bodies', (h) => {
  const bigList = (extra = '') => `{"ips": [${Array.from({ length: 40_000 }, (_, i) => `{"ip": "80.0.${(i >> 8) & 255}.${i & 255}", "vendor": "lg"${extra}}`).join(',')}]}`;

  it('imports a body above a mebibyte like a small one', async () => {
    const text = bigList();
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const reply = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: text });
    expect(reply.body).toEqual({ result: true, data: { count: 40_000 } });
  });

  it('refuses bad JSON and a poisoned key in a large body with the words of a small one', async () => {
    const small = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: '{"ips": [1,,2]}' });
    expect(small.status).toBe(400);
    const large = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: bigList().replace(/\]\}$/, ',]}') });
    expect([large.status, large.body.message]).toEqual([400, small.body.message]);

    const poisonedSmall = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: '{"ips": [{"__proto__": {"x": 1}}]}' });
    expect(poisonedSmall.status).toBe(400);
    const poisoned = bigList().replace('"vendor": "lg"}', '"vendor": "lg", "__proto__": {"x": 1}}');
    const poisonedLarge = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: poisoned });
    expect([poisonedLarge.status, poisonedLarge.body.message]).toEqual([400, poisonedSmall.body.message]);
    const poisonedKey = `{"__proto__": ${bigList().slice(8, -1)}, "ips": []}`;
    const refusedKey = await h.call('POST', '/v1/admin/testersIP/addArray', { token: h.tokens.admin, body: poisonedKey });
    expect([refusedKey.status, refusedKey.body.message]).toEqual([400, poisonedSmall.body.message]);
  });
});
