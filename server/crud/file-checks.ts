// Content checks of uploaded files by the kind a manifest declares (storage.files.<field>.kind): a PNG or
// image is read from its own header (never trusted by name or MIME type), CSS must parse as rules, JSON must
// be an object. Each refusal names the field by its title (`Logo 1280x720 (PNG) is not a PNG image`).
import { crc32 } from 'node:zlib';
import type { FileRule } from '../../src/core/manifest/types.ts';
import { AppError, badRequest } from '../errors.ts';
import { parseJsonSafely } from './input.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height of a PNG whose every chunk is intact (length, CRC, IHDR first, IEND last), else undefined. */
export function pngSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length < 8 + 25 + 12 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  let offset = 8;
  let size: { width: number; height: number } | undefined;
  while (offset + 12 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > data.length) return undefined;
    if (crc32(data.subarray(offset + 4, end - 4)) !== data.readUInt32BE(end - 4)) return undefined;
    if (offset === 8) {
      if (type !== 'IHDR' || length !== 13) return undefined;
      size = { width: data.readUInt32BE(offset + 8), height: data.readUInt32BE(offset + 12) };
    }
    if (type === 'IEND') return end === data.length ? size : undefined;
    offset = end;
  }
  return undefined;
}

/** Width and height of a baseline or progressive JPEG, from its first SOF marker. */
function jpegSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return undefined;
    const marker = data[offset + 1];
    const length = data.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

const imageSize = (data: Buffer) => pngSize(data) ?? jpegSize(data);

/** True when the text is a sequence of CSS rules and at-rules: balanced blocks, no markup outside strings. */
export function looksLikeCss(text: string): boolean {
  // Comments and strings may hold anything; what is left must be CSS syntax.
  const bare = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
  // `<` never occurs in CSS outside strings, so it marks HTML or SVG; a leftover `/*` is an unclosed comment.
  if (bare.includes('<') || bare.includes('/*')) return false;
  let depth = 0;
  let prelude = '';
  let rules = 0;
  for (const ch of bare) {
    if (ch === '{') {
      if (depth === 0 && !prelude.trim()) return false;
      depth++;
      prelude = '';
    } else if (ch === '}') {
      if (--depth < 0) return false;
      if (depth === 0) rules++;
      prelude = '';
    } else if (depth === 0) {
      if (ch === ';') {
        if (!/^\s*@[a-z-]+/i.test(prelude)) return false;
        rules++;
        prelude = '';
      } else prelude += ch;
    }
  }
  return depth === 0 && !prelude.trim() && rules > 0;
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
  if (/[/\\]|\.\.|[\x00-\x1f]/.test(filename)) throw badRequest(`${field}: the file name "${filename}" must not contain a path`);
}

/**
 * Checks one uploaded file against its rule and returns what the record receives: the parsed object for a
 * JSON file, the bytes otherwise. `field` is the field's title, as the refusals name it.
 * @example checkUpload({ kind: 'png', width: 1280, height: 720 }, 'Logo 1280x720 (PNG)', file) // throws 400 on a 1x1 PNG
 */
export function checkUpload(rule: FileRule, field: string, file: { filename: string; data: Buffer }): unknown {
  checkFileName(file.filename, field);
  if (rule.maxBytes !== undefined && file.data.length > rule.maxBytes) {
    throw new AppError(413, `${field} is larger than ${rule.maxBytes} bytes`);
  }
  if (!file.data.length) throw badRequest(`${field} is an empty file`);
  const sized = (size: { width: number; height: number }) => {
    if ((rule.width !== undefined && size.width !== rule.width) || (rule.height !== undefined && size.height !== rule.height)) {
      throw badRequest(`${field} is a ${size.width}x${size.height} image; it must be ${rule.width}x${rule.height}`);
    }
    return file.data;
  };
  switch (rule.kind) {
    case 'png': {
      const size = pngSize(file.data);
      if (!size) throw badRequest(`${field} is not a PNG image`);
      return sized(size);
    }
    case 'image': {
      const size = imageSize(file.data);
      if (!size) throw badRequest(`${field} is not a PNG or JPEG image`);
      return sized(size);
    }
    case 'css': {
      if (!looksLikeCss(decodeUtf8(file.data, field))) throw badRequest(`${field} is not a CSS style sheet`);
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
