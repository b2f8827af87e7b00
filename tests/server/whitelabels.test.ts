// Whitelabels: multipart add/edit with logos and CSS checked by content, stored under DATA_DIR and served at
// the asset URLs; hostile uploads refused with nothing stored; destroy by id and name removes the files.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { plainPng } from '../../scripts/lib/png.ts';
import { CSS, css, FHD, HD, png, whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect, type FormFile, type Harness } from './harness.ts';

/** Every file under DATA_DIR/whitelabels, relative. */
function storedFiles(h: Harness): string[] {
  const root = join(h.app.engine.dataDir, 'whitelabels');
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort();
}

forEachDialect('whitelabels', (h) => {
  const add = (form: Record<string, string | FormFile>, token = h.tokens.admin) =>
    h.call('POST', '/v1/admin/whitelabel/add', { form, token });

  it('adds a whitelabel from a multipart form and serves its logos and CSS at the asset URLs', async () => {
    const reply = await add(whitelabelForm('acme'));
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      name: 'acme',
      deployConfiguration: { region: 'eu', replicas: 2 },
      imageHD: '/whitelabels/acme_1280x720.png',
      imageFHD: '/whitelabels/acme_1920x1080.png',
      cssConfig: '/whitelabels/acme/styles/indexHtml.css',
    });
    const hd = await h.app.inject({ url: '/whitelabels/acme_1280x720.png' });
    expect(hd.statusCode).toBe(200);
    expect(hd.headers['content-type']).toBe('image/png');
    expect(hd.rawPayload.equals(HD())).toBe(true);
    const sheet = await h.app.inject({ url: '/whitelabels/acme/styles/indexHtml.css' });
    expect(sheet.headers['content-type']).toContain('text/css');
    expect(sheet.body).toBe(CSS);
    expect(storedFiles(h)).toEqual(['acme/styles/indexHtml.css', 'acme_1280x720.png', 'acme_1920x1080.png']);
  });

  it('serves a part of an uploaded file on a Range request and a 304 to a client whose copy is current', async () => {
    const id = (await add(whitelabelForm('ranged'))).body.data.id;
    const url = '/whitelabels/ranged_1280x720.png';
    const whole = await h.app.inject({ url });
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const etag = whole.headers.etag as string;
    expect(etag).toBeTruthy();
    const part = await h.app.inject({ url, headers: { range: 'bytes=0-7' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${HD().length}`);
    expect(part.rawPayload.equals(HD().subarray(0, 8))).toBe(true);
    const again = await h.app.inject({ url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // The sandbox holds on every answer of the file, the partial and the unchanged one too.
    for (const reply of [part, again]) expect(reply.headers['content-security-policy']).toBe('sandbox');
    // A replaced file is a new version: the old ETag no longer matches.
    const edited = await h.admin('POST', '/v1/admin/whitelabel/edit', { form: { id: String(id), name: 'ranged', imageHD: png(plainPng(1280, 720, [200, 0, 0])) } });
    expect(edited.status).toBe(200);
    expect((await h.app.inject({ url, headers: { 'if-none-match': etag } })).statusCode).toBe(200);
  });

  it('answers 404 for an asset that does not exist, so the panel can tell it is unreachable', async () => {
    const reply = await h.app.inject({ url: '/whitelabels/nobody_1280x720.png' });
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toMatchObject({ result: false });
    expect((await h.app.inject({ url: '/whitelabels/..%2Fpanel.sqlite' })).statusCode).toBe(404);
  });

  it('requires the logos and the CSS on add, naming the missing one', async () => {
    const { cssConfig: _dropped, ...withoutCss } = whitelabelForm('nocss');
    const reply = await add(withoutCss);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('CSS is required');
  });

  const hostile: [string, Record<string, string | FormFile>, number, string][] = [
    ['a logo of the wrong size', { imageHD: png(plainPng(1280, 719)) }, 400, 'Logo 1280x720 (PNG) is a 1280x719 image; it must be 1280x720'],
    ['the HD logo in the FullHD field', { imageFHD: png(HD()) }, 400, 'Logo 1920x1080 (PNG) is a 1280x720 image; it must be 1920x1080'],
    ['a text file named .png', { imageHD: png(Buffer.from('just some text, honest')) }, 400, 'Logo 1280x720 (PNG) is not a PNG image'],
    ['a truncated PNG', { imageHD: png(HD().subarray(0, 200)) }, 400, 'Logo 1280x720 (PNG) is not a PNG image'],
    ['an SVG as a logo', { imageHD: png(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"/>'), 'logo.svg') }, 400, 'Logo 1280x720 (PNG) is not a PNG image'],
    ['an HTML page as the CSS', { cssConfig: css('<html><body><script>alert(1)</script></body></html>') }, 400, 'CSS is not a CSS style sheet'],
    ['an SVG as the CSS', { cssConfig: css('<svg><style>body{}</style></svg>') }, 400, 'CSS is not a CSS style sheet'],
    ['plain text as the CSS', { cssConfig: css('hello world') }, 400, 'CSS is not a CSS style sheet'],
    ['a PNG as the CSS', { cssConfig: { filename: 'x.css', content: HD() } }, 400, 'CSS is not UTF-8 text'],
    ['an oversized logo', { imageHD: png(Buffer.concat([HD(), Buffer.alloc(2_100_000)])) }, 413, 'Logo 1280x720 (PNG) is larger than 2097152 bytes'],
    ['a file name with ../', { imageHD: png(HD(), '../../panel.png') }, 400, 'Logo 1280x720 (PNG): the file name "../../panel.png" must not contain a path'],
    ['a logo sent as text', { imageHD: 'https://evil.example.com/logo.png' }, 400, 'Logo 1280x720 (PNG) must be an uploaded file'],
    ['a file in a text field', { feUrl: { filename: 'x.txt', content: 'https://x.io' } }, 400, 'FE URL must be a text field, not a file'],
    ['bad JSON in the deploy configuration', { deployConfiguration: '{region: eu' }, 400, 'Deploy configuration is not valid JSON'],
    ['a JSON list as the deploy configuration', { deployConfiguration: '[1,2]' }, 400, 'Deploy configuration must be a JSON object'],
    ['a name that is a path', { name: '../etc' }, 400, 'Name is not in the expected form: letters, digits, - and _: it names the asset files'],
    ['an unknown field', { color: 'red' }, 400, 'color is not an accepted field'],
    ['a wrong type', { maxVersion: 'latest' }, 400, 'Max version must be a version XX.YY.ZZ, like 01.20.34'],
  ];
  for (const [what, change, status, message] of hostile) {
    it(`refuses ${what} with ${status} and stores nothing`, async () => {
      const before = await h.count('whitelabels');
      const filesBefore = storedFiles(h);
      const reply = await add(whitelabelForm('hostile', change));
      expect(reply.status).toBe(status);
      expect(reply.body.result).toBe(false);
      expect(reply.body.message).toContain(message);
      expect(await h.count('whitelabels')).toBe(before);
      expect(storedFiles(h)).toEqual(filesBefore);
      const staging = join(h.app.engine.dataDir, '.staging');
      expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
    });
  }

  it('refuses a second whitelabel of the same name with 409 and keeps the first one\'s logo', async () => {
    await add(whitelabelForm('twice'));
    const other = plainPng(1280, 720, [200, 0, 0]);
    const reply = await add(whitelabelForm('twice', { imageHD: png(other) }));
    expect(reply.status).toBe(409);
    expect(reply.body.message).toBe('Name is already taken');
    expect((await h.app.inject({ url: '/whitelabels/twice_1280x720.png' })).rawPayload.equals(HD())).toBe(true);
  });

  it('edits text fields without files, and replaces only the logo that is sent', async () => {
    const id = (await add(whitelabelForm('editme'))).body.data.id;
    const text = await h.admin('POST', '/v1/admin/whitelabel/edit', {
      form: { id: String(id), name: 'editme', feUrl: 'https://new.example.com/', deployConfiguration: '{"region":"us"}', maxVersion: '02.00.00' },
    });
    expect(text.status).toBe(200);
    expect(text.body.data).toMatchObject({ feUrl: 'https://new.example.com/', deployConfiguration: { region: 'us' }, imageHD: '/whitelabels/editme_1280x720.png' });
    const red = plainPng(1280, 720, [200, 0, 0]);
    const logo = await h.admin('POST', '/v1/admin/whitelabel/edit', { form: { id: String(id), imageHD: png(red) } });
    expect(logo.status).toBe(200);
    expect((await h.app.inject({ url: '/whitelabels/editme_1280x720.png' })).rawPayload.equals(red)).toBe(true);
    expect((await h.app.inject({ url: '/whitelabels/editme_1920x1080.png' })).rawPayload.equals(FHD())).toBe(true);
  });

  it('refuses a rename on edit, since the name names the asset files', async () => {
    const id = (await add(whitelabelForm('fixedname'))).body.data.id;
    const reply = await h.admin('POST', '/v1/admin/whitelabel/edit', { form: { id: String(id), name: 'renamed' } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('Name cannot be changed');
  });

  it('refuses a bad logo on edit and keeps the stored one', async () => {
    const id = (await add(whitelabelForm('keeplogo'))).body.data.id;
    const reply = await h.admin('POST', '/v1/admin/whitelabel/edit', { form: { id: String(id), imageFHD: png(HD()) } });
    expect(reply.status).toBe(400);
    expect((await h.app.inject({ url: '/whitelabels/keeplogo_1920x1080.png' })).rawPayload.equals(FHD())).toBe(true);
  });

  it('destroys by id and name together, and removes the asset files', async () => {
    const id = (await add(whitelabelForm('gone'))).body.data.id;
    const wrongName = await h.admin('GET', '/v1/admin/whitelabel/destroy', { query: { id, name: 'other' } });
    expect(wrongName.status).toBe(404);
    const reply = await h.admin('GET', '/v1/admin/whitelabel/destroy', { query: { id, name: 'gone' } });
    expect(reply.status).toBe(200);
    expect(storedFiles(h).filter((f) => f.startsWith('gone'))).toEqual([]);
    expect((await h.app.inject({ url: '/whitelabels/gone_1280x720.png' })).statusCode).toBe(404);
  });

  it('lists whitelabels for the combination lookups of a tester, but lets only admins and developers write', async () => {
    expect((await h.call('GET', '/v1/admin/whitelabel/get', { token: h.tokens.tester, query: { pageSize: 1000 } })).status).toBe(200);
    expect((await add(whitelabelForm('bytester'), h.tokens.tester)).status).toBe(403);
    expect((await add(whitelabelForm('bydeveloper'), h.tokens.developer)).status).toBe(200);
  });
});
