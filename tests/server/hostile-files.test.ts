// Hostile uploads served from the panel's origin: style sheets that import foreign sheets or run script are
// refused, and a logo keeps only the chunks a picture needs (HTML hidden in a text chunk never reaches disk).
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

it('accepts ordinary CSS: images by URL, data images, fonts, media queries, custom properties', () => {
  for (const sheet of [
    'body { background: url(/img/bg.png) no-repeat; }',
    '.logo { background-image: url("https://cdn.example.com/x.png"), url(data:image/png;base64,iVBORw0KGgo=); }',
    '@font-face { font-family: Tv; src: url(fonts/tv.woff2) format("woff2"); }',
    '@media (min-width: 1920px) { :root { --gap: 24px; } .grid { gap: var(--gap); } }',
    '.note::after { content: "see https://example.com"; }',
  ]) {
    expect(cssProblem(sheet), sheet).toBeUndefined();
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
  ] as const) {
    it(`refuses a style sheet with ${what} with 400 and stores no whitelabel`, async () => {
      const before = await h.count('whitelabels');
      const reply = await add('hostilecss', { cssConfig: css(sheet) });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(/^CSS /);
      expect(reply.body.message).toContain(message);
      expect(await h.count('whitelabels')).toBe(before);
    });
  }

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
