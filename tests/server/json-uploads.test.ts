// Localisations and WL configs: a JSON file uploaded per whitelabel (multipart), one record per whitelabel,
// the whitelabel locked on edit, the active switch, and files that are not a JSON object refused.
import { expect, it } from 'vitest';
import { whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect, type FormFile, type Harness } from './harness.ts';

const json = (value: unknown, filename = 'data.json'): FormFile => ({ filename, content: JSON.stringify(value), type: 'application/json' });

const areas = [
  { area: 'localisation', table: 'localisations', field: 'translations', title: 'Translations', value: { ru: { hello: 'Привет' }, en: { hello: 'Hello' } } },
  { area: 'wlConfig', table: 'wl_configs', field: 'config', title: 'Config', value: { theme: 'dark', features: { epg: true } } },
];

forEachDialect('localisations and WL configs', (h: Harness) => {
  const wl: number[] = [];
  it('creates the whitelabels the files belong to', async () => {
    for (const name of ['acme', 'zeta']) wl.push((await h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm(name) })).body.data.id);
  });

  for (const { area, table, field, title, value } of areas) {
    const path = (call: string) => `/v1/admin/${area}/${call}`;
    const add = (form: Record<string, string | FormFile>) => h.admin('POST', path('add'), { form });

    it(`${area}: adds from an uploaded JSON file, the row carrying the whitelabel name`, async () => {
      const reply = await add({ whitelabelId: String(wl[0]), [field]: json(value), isActive: 'true' });
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ whitelabelId: wl[0], whitelabel: { name: 'acme' }, [field]: value, isActive: true });
      const rows = (await h.admin('GET', path('get'))).body.data.rows;
      expect(rows).toHaveLength(1);
      expect(rows[0][field]).toEqual(value);
    });

    it(`${area}: refuses a second record for the same whitelabel`, async () => {
      const reply = await add({ whitelabelId: String(wl[0]), [field]: json({}) });
      expect(reply.status).toBe(409);
      expect(reply.body.message).toBe('Whitelabel ID is already taken');
    });

    it(`${area}: overwrites the file on edit, and refuses a change of whitelabel`, async () => {
      const id = (await h.admin('GET', path('get'))).body.data.rows[0].id;
      const next = { replaced: true };
      const edited = await h.admin('POST', path('edit'), { form: { id: String(id), whitelabelId: String(wl[0]), [field]: json(next) } });
      expect(edited.status).toBe(200);
      expect(edited.body.data[field]).toEqual(next);
      const moved = await h.admin('POST', path('edit'), { form: { id: String(id), whitelabelId: String(wl[1]) } });
      expect(moved.status).toBe(400);
      expect(moved.body.message).toBe('Whitelabel ID cannot be changed');
    });

    it(`${area}: switches the active flag with changeIsActive`, async () => {
      const id = (await h.admin('GET', path('get'))).body.data.rows[0].id;
      expect((await h.admin('POST', path('changeIsActive'), { body: { id } })).body.data.isActive).toBe(false);
      expect((await h.admin('POST', path('changeIsActive'), { body: { id } })).body.data.isActive).toBe(true);
      expect((await h.call('POST', path('changeIsActive'), { token: h.tokens.tester, body: { id } })).status).toBe(403);
    });

    const hostile: [string, Record<string, string | FormFile>, number, string][] = [
      ['a file that is not JSON', { [field]: { filename: 'x.json', content: '{"a": ' } }, 400, `${title} is not valid JSON`],
      ['a JSON list', { [field]: json(['a', 'b']) }, 400, `${title} must hold a JSON object`],
      ['a JSON string', { [field]: json('hello') }, 400, `${title} must hold a JSON object`],
      ['an HTML page', { [field]: { filename: 'x.json', content: '<html><body>hi</body></html>' } }, 400, `${title} is not valid JSON`],
      ['a PNG', { [field]: { filename: 'x.json', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]) } }, 400, `${title} is not UTF-8 text`],
      ['a prototype-poisoning key', { [field]: { filename: 'x.json', content: '{"__proto__": {"admin": true}}' } }, 400, `${title} is not valid JSON`],
      ['an oversized file', { [field]: { filename: 'x.json', content: `{"a":"${'x'.repeat(2_100_000)}"}` } }, 413, `${title} is larger than 2097152 bytes`],
      ['a file name with ../', { [field]: json({}, '../../etc/passwd') }, 400, `${title}: the file name "../../etc/passwd" must not contain a path`],
      ['a dangling whitelabel', { whitelabelId: '999999' }, 400, 'Whitelabel ID: there is no whitelabel with id 999999'],
      ['a whitelabel id that is not a number', { whitelabelId: 'acme' }, 400, 'Whitelabel ID must be a whole number'],
      ['an unknown field', { colour: 'red' }, 400, 'colour is not an accepted field'],
      ['a file in a text field', { isActive: json(true) }, 400, 'Active must be a text field, not a file'],
    ];
    for (const [what, change, status, message] of hostile) {
      it(`${area}: refuses ${what} with ${status} and stores nothing`, async () => {
        const before = await h.count(table);
        const reply = await add({ whitelabelId: String(wl[1]), [field]: json({ ok: 1 }), ...change });
        expect(reply.status).toBe(status);
        expect(reply.body.message).toContain(message);
        expect(await h.count(table)).toBe(before);
      });
    }

    it(`${area}: requires the whitelabel and the file`, async () => {
      expect((await add({ whitelabelId: String(wl[1]) })).body.message).toBe(`${title} is required`);
      expect((await add({ [field]: json({}) })).body.message).toBe('Whitelabel ID is required');
    });

    it(`${area}: deletes with DELETE destroy, for admins and developers only`, async () => {
      const id = (await h.admin('GET', path('get'))).body.data.rows[0].id;
      expect((await h.call('DELETE', path('destroy'), { token: h.tokens.tester, query: { id } })).status).toBe(403);
      expect((await h.call('DELETE', path('destroy'), { token: h.tokens.developer, query: { id } })).status).toBe(200);
      expect(await h.count(table)).toBe(0);
    });
  }
});
