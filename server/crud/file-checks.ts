// Content checks of uploaded files by the kind a manifest declares (storage.files.<field>.kind): a PNG or
// image is read from its own header (never trusted by name or MIME type) and stored with only the chunks a
// logo needs, CSS is parsed by css-tree and refused when it imports sheets, names script URLs, loads from
// another host or selects on input values (docs/security.md), JSON must be an object. Each refusal names the field by its title (`Logo 1280x720 (PNG) is not a PNG image`).
import { tokenize, tokenTypes, parse, ident, string as cssString, url as cssUrl } from 'css-tree';
import { crc32, inflateSync } from 'node:zlib';
import type { FileRule } from '../../kernel/manifest/types.ts';
import { AppError, badRequest } from '../errors.ts';
import { parseJsonSafely } from '../core/input.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface PngChunk {
  type: string;
  /** The whole chunk: length, type, data and CRC. */
  bytes: Buffer;
  data: Buffer;
}

/** The chunks of a PNG whose every chunk is intact (length, CRC, IHDR first, IEND last), else undefined. */
function pngChunks(data: Buffer): PngChunk[] | undefined {
  if (data.length < 8 + 25 + 12 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  const chunks: PngChunk[] = [];
  let offset = 8;
  while (offset + 12 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > data.length) return undefined;
    if (crc32(data.subarray(offset + 4, end - 4)) !== data.readUInt32BE(end - 4)) return undefined;
    if (offset === 8 && (type !== 'IHDR' || length !== 13)) return undefined;
    chunks.push({ type, bytes: data.subarray(offset, end), data: data.subarray(offset + 8, end - 4) });
    if (type === 'IEND') return end === data.length ? chunks : undefined;
    offset = end;
  }
  return undefined;
}

/** Width and height of a PNG whose every chunk is intact, else undefined. */
export function pngSize(data: Buffer): { width: number; height: number } | undefined {
  const ihdr = pngChunks(data)?.[0];
  return ihdr && { width: ihdr.data.readUInt32BE(0), height: ihdr.data.readUInt32BE(4) };
}

/**
 * What a logo needs: the image itself and how to colour it. Text (tEXt, zTXt, iTXt), metadata (eXIf, tIME),
 * embedded profiles, animation and private chunks are dropped, so nothing but pixels is stored and served.
 */
const KEPT_PNG_CHUNKS = new Set(['IHDR', 'PLTE', 'tRNS', 'IDAT', 'IEND', 'gAMA', 'cHRM', 'sRGB']);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Adam7 passes: [x start, y start, x step, y step]. */
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];

/** Bytes the decompressed image data of this IHDR must have (a filter byte per row), or undefined for a bad IHDR. */
function expectedImageBytes(ihdr: Buffer): number | undefined {
  const [width, height] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)];
  const [depth, colour, compression, filter, interlace] = [ihdr[8], ihdr[9], ihdr[10], ihdr[11], ihdr[12]];
  if (!width || !height || !BIT_DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) return undefined;
  const rowBytes = (w: number) => 1 + Math.ceil((w * depth * CHANNELS[colour]) / 8);
  if (!interlace) return height * rowBytes(width);
  let total = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w > 0 && h > 0) total += h * rowBytes(w);
  }
  return total;
}

/**
 * The PNG rebuilt from the chunks a logo needs, after checking that its image data decompresses to exactly the
 * size its header promises; undefined when it is not such a PNG.
 * @example cleanPng(logoWithTextChunk) // the same pixels, without the tEXt chunk
 */
export function cleanPng(data: Buffer): Buffer | undefined {
  const chunks = pngChunks(data);
  if (!chunks) return undefined;
  const expected = expectedImageBytes(chunks[0].data);
  const idat = chunks.filter((c) => c.type === 'IDAT');
  if (expected === undefined || !idat.length) return undefined;
  try {
    // One byte more than promised is enough to tell a lie; a zip bomb stops there.
    const pixels = inflateSync(Buffer.concat(idat.map((c) => c.data)), { maxOutputLength: expected + 1 });
    if (pixels.length !== expected) return undefined;
  } catch {
    return undefined;
  }
  const kept = chunks.filter((c) => KEPT_PNG_CHUNKS.has(c.type));
  return kept.length === chunks.length ? data : Buffer.concat([PNG_SIGNATURE, ...kept.map((c) => c.bytes)]);
}

/** JPEG segments a picture needs; comments and APPn metadata (Exif, XMP, ICC...) other than JFIF/Adobe are dropped. */
const DROPPED_JPEG_MARKERS = (marker: number) => marker === 0xfe || (marker >= 0xe1 && marker <= 0xed) || marker === 0xef;

/** Width, height and the cleaned bytes of a baseline or progressive JPEG, from its first SOF marker. */
function cleanJpeg(data: Buffer): { width: number; height: number; data: Buffer } | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  const parts: Buffer[] = [data.subarray(0, 2)];
  let offset = 2;
  let size: { width: number; height: number } | undefined;
  while (offset + 4 <= data.length) {
    if (data[offset] !== 0xff) return undefined;
    const marker = data[offset + 1];
    // Start of scan: the entropy-coded data and everything after it are the picture itself.
    if (marker === 0xda) {
      parts.push(data.subarray(offset));
      return size && { ...size, data: Buffer.concat(parts) };
    }
    const length = data.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > data.length) return undefined;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc && !size) {
      if (length < 7) return undefined;
      size = { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    if (!DROPPED_JPEG_MARKERS(marker)) parts.push(data.subarray(offset, offset + 2 + length));
    offset += 2 + length;
  }
  return undefined;
}

/** The script scheme a URL names (`javascript`, escapes and the whitespace browsers ignore removed), else undefined. */
function scriptScheme(raw: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are what browsers ignore in a scheme
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(raw.replace(/[\s\x00-\x1f\x7f]/g, '').toLowerCase())?.[1];
  return scheme && ['javascript', 'vbscript', 'livescript'].includes(scheme) ? scheme : undefined;
}

/**
 * Why a URL of a style sheet is refused, or undefined: only a path on this server (`logo.png`, `/whitelabels/...`,
 * `#id`) or an inline image or font (`data:image/...`, `data:font/...`); anything with another scheme, or
 * starting with `//` (`\\` reads as `/`), loads from another host, which tells that host what the page shows.
 */
function urlProblem(raw: string): string | undefined {
  const scheme = scriptScheme(raw);
  if (scheme) return `names a ${scheme}: URL`;
  // eslint-disable-next-line no-control-regex -- browsers drop these before they read a URL
  const url = raw.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '').toLowerCase();
  const shown = url.length > 40 ? `${url.slice(0, 40)}...` : url;
  if (url.startsWith('data:')) return /^data:(image|font)\//.test(url) ? undefined : `names a data: URL that is no image or font (${shown})`;
  if (/^[a-z][a-z0-9+.-]*:/.test(url) || url.replace(/\\/g, '/').startsWith('//')) return `loads ${shown} from another host`;
  return undefined;
}

/** Properties and functions through which old browsers run script from a style sheet. */
const SCRIPT_PROPERTIES = new Set(['behavior', '-moz-binding']);
const SCRIPT_FUNCTIONS = new Set(['expression']);
/** Functions whose strings are URLs to load (`url("x")`, `image-set("x.png" 1x)`, `src("font.woff")`). */
const URL_FUNCTIONS = new Set(['url', 'src', 'image', 'image-set', '-webkit-image-set', 'cross-fade', '-webkit-cross-fade']);
const NOT_CSS = 'is not a CSS style sheet';

/** An open bracket of the sheet: `(` of a function (its name), of a group, or `[` of an attribute selector. */
interface Open {
  kind: 'function' | '(' | '[';
  name: string;
  /** Where its contents start. */
  from: number;
  /** A function: a string was among its contents. A `[`: the attribute's name has been read. */
  seen: boolean;
}

/**
 * Why a style sheet is refused, or undefined when it is plain CSS: it must parse (css-tree) as rules and at-rules
 * with balanced blocks and no markup; it may not import other sheets or name script (`@import`,
 * `url(javascript:...)`, `expression()`, `behavior`, `-moz-binding`), load anything from another host (a remote
 * `url()`, `image-set()`, `src()`, `@font-face` source), nor select on an element's `value` (`input[value^="a"]`,
 * which with a loaded URL reads out what a user types); escapes are decoded before the check. docs/security.md.
 * @example cssProblem('a { background: url(javascript:alert(1)) }') // 'names a javascript: URL (line 1)'
 */
export function cssProblem(text: string): string | undefined {
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  let problem: string | undefined;
  let depth = 0;
  const open: Open[] = [];
  tokenize(text, (type, start, end) => {
    if (problem) return;
    const token = text.slice(start, end);
    const at = `(line ${lineOf(start)})`;
    const top = open[open.length - 1];
    switch (type) {
      case tokenTypes.Delim:
        // `<` never occurs in CSS outside strings, so it marks HTML or SVG.
        if (token === '<') problem = NOT_CSS;
        // In `[ns|name op value]` the name ends at the operator (`=`, `^=`...); `|` and `*` belong to the namespace.
        else if (top?.kind === '[' && token !== '|' && token !== '*') top.seen = true;
        break;
      case tokenTypes.CDO:
      case tokenTypes.CDC:
      case tokenTypes.BadString:
        problem = NOT_CSS;
        break;
      case tokenTypes.Comment:
        if (!token.endsWith('*/') || token.length < 4) problem = NOT_CSS;
        break;
      case tokenTypes.LeftCurlyBracket:
        depth++;
        break;
      case tokenTypes.RightCurlyBracket:
        if (--depth < 0) problem = NOT_CSS;
        break;
      case tokenTypes.LeftParenthesis:
      case tokenTypes.LeftSquareBracket:
        open.push({ kind: type === tokenTypes.LeftSquareBracket ? '[' : '(', name: '', from: end, seen: false });
        break;
      case tokenTypes.RightParenthesis:
      case tokenTypes.RightSquareBracket: {
        const closed = open.pop();
        // `\75rl(https://...)` is a URL to a browser, though the tokenizer reads a function of plain tokens.
        if (closed?.name === 'url' && !closed.seen) {
          const inner = urlProblem(cssUrl.decode(`url(${text.slice(closed.from, start)})`));
          if (inner) problem = `${inner} ${at}; use paths of this server or data: images`;
        }
        break;
      }
      case tokenTypes.AtKeyword:
        if (ident.decode(token.slice(1)).toLowerCase() === 'import') problem = `imports another sheet with @import ${at}; put its rules in this file`;
        break;
      case tokenTypes.Function: {
        const name = ident.decode(token.slice(0, -1)).toLowerCase();
        if (SCRIPT_FUNCTIONS.has(name)) problem = `uses ${name}() ${at}, which runs script`;
        open.push({ kind: 'function', name, from: end, seen: false });
        break;
      }
      case tokenTypes.Ident: {
        const name = ident.decode(token).toLowerCase();
        if (SCRIPT_PROPERTIES.has(name)) problem = `uses ${token} ${at}, which runs script`;
        else if (top?.kind === '[' && !top.seen && name === 'value') {
          problem = `selects on an input's value with [${token}] ${at}, which can send what a user types elsewhere`;
        }
        break;
      }
      case tokenTypes.Url:
      case tokenTypes.BadUrl:
      case tokenTypes.String: {
        const value = type === tokenTypes.String ? cssString.decode(token) : type === tokenTypes.Url ? cssUrl.decode(token) : token.slice(4);
        const scheme = scriptScheme(value);
        if (scheme) problem = `names a ${scheme}: URL ${at}`;
        else if (type === tokenTypes.BadUrl) problem = NOT_CSS;
        else if (type === tokenTypes.Url || (top?.kind === 'function' && URL_FUNCTIONS.has(top.name))) {
          const remote = urlProblem(value);
          if (remote) problem = `${remote} ${at}; use paths of this server or data: images`;
        }
        if (top?.kind === 'function') top.seen = true;
        break;
      }
    }
  });
  if (problem) return problem;
  if (depth !== 0) return NOT_CSS;
  let parseError: string | undefined;
  const sheet = parse(text, { onParseError: () => (parseError ??= NOT_CSS) });
  if (parseError) return parseError;
  return sheet.type === 'StyleSheet' && !sheet.children.isEmpty ? undefined : NOT_CSS;
}

function decodeUtf8(data: Buffer, field: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw badRequest(`${field} is not UTF-8 text`);
  }
}

/** A file name that is only a name: no directory part, no `..`, no control characters. */
export function checkFileName(filename: string, field: string): void {
  // eslint-disable-next-line no-control-regex -- a control character in a file name is refused
  if (/[/\\]|\.\.|[\x00-\x1f]/.test(filename)) throw badRequest(`${field}: the file name "${filename}" must not contain a path`);
}

/**
 * Checks one uploaded file against its rule and returns what the record receives: the parsed object for a
 * JSON file, the bytes to store otherwise (an image without the chunks a logo does not need). `field` is the
 * field's title, as the refusals name it.
 * @example checkUpload({ kind: 'png', width: 1280, height: 720 }, 'Logo 1280x720 (PNG)', file) // throws 400 on a 1x1 PNG
 */
export function checkUpload(rule: FileRule, field: string, file: { filename: string; data: Buffer }): unknown {
  checkFileName(file.filename, field);
  if (rule.maxBytes !== undefined && file.data.length > rule.maxBytes) {
    throw new AppError(413, `${field} is larger than ${rule.maxBytes} bytes`);
  }
  if (!file.data.length) throw badRequest(`${field} is an empty file`);
  const sized = (size: { width: number; height: number }, data: Buffer) => {
    if ((rule.width !== undefined && size.width !== rule.width) || (rule.height !== undefined && size.height !== rule.height)) {
      throw badRequest(`${field} is a ${size.width}x${size.height} image; it must be ${rule.width}x${rule.height}`);
    }
    return data;
  };
  switch (rule.kind) {
    case 'png': {
      const clean = cleanPng(file.data);
      if (!clean) throw badRequest(`${field} is not a PNG image`);
      return sized(pngSize(clean)!, clean);
    }
    case 'image': {
      const png = cleanPng(file.data);
      if (png) return sized(pngSize(png)!, png);
      const jpeg = cleanJpeg(file.data);
      if (!jpeg) throw badRequest(`${field} is not a PNG or JPEG image`);
      return sized(jpeg, jpeg.data);
    }
    case 'css': {
      const problem = cssProblem(decodeUtf8(file.data, field));
      if (problem) throw badRequest(`${field} ${problem}`);
      return file.data;
    }
    case 'json': {
      const value = parseJsonSafely(decodeUtf8(file.data, field), field);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw badRequest(`${field} must hold a JSON object`);
      }
      return value;
    }
  }
}
