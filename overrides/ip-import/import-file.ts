// The IP import file read fast enough for 100,000 lines (issue 14): the same rules as `parseIpImport` of
// kernel/rules/ip.ts (SPEC 5 "IP import"; the unit test holds the two to the same answers), but each address is
// kept as two numbers in typed arrays instead of a string, so a file of 100,000 lines that expands to 450,000
// blocks is read in tens of milliseconds, the page receives only counts and the first lines, and the addArray
// body is written straight into bytes. Pure functions, no DOM: run in parse.worker.ts and in the unit tests.
import { eachCidrBlock, parseIpv4, type ImportProblem, type ImportReason } from '../../kernel/rules/ip';

/** Lines named in the preview's list of bad lines; the rest are only counted. */
export const NAMED_PROBLEMS = 200;

/** The addresses of a file as CIDR blocks: `addresses[i]` / `bits[i]`, for i < count. */
export interface ImportBlocks {
  addresses: Uint32Array;
  bits: Uint8Array;
  count: number;
  /** The first NAMED_PROBLEMS bad lines, in file order. */
  problems: ImportProblem[];
  problemCount: number;
}

class Blocks {
  addresses = new Uint32Array(1024);
  bits = new Uint8Array(1024);
  count = 0;
  push(address: number, bits: number) {
    if (this.count === this.addresses.length) {
      const addresses = new Uint32Array(this.count * 2);
      addresses.set(this.addresses);
      const grown = new Uint8Array(this.count * 2);
      grown.set(this.bits);
      this.addresses = addresses;
      this.bits = grown;
    }
    this.addresses[this.count] = address;
    this.bits[this.count] = bits;
    this.count += 1;
  }
}

/**
 * Reads a dotted address with an optional /mask of 0-32 (the `ipv4cidr` format: parts 0-255 and a mask without
 * leading zeros) from `text`; returns the address and puts the mask in `out[0]`, or returns -1.
 * @example parseCidr('10.0.0.1/24', out) === 167772161 && out[0] === 24
 */
export function parseCidr(text: string, out: Uint8Array): number {
  const end = text.length;
  let i = 0;
  let address = 0;
  for (let part = 0; part < 4; part += 1) {
    if (part > 0) {
      if (text.charCodeAt(i) !== 0x2e) return -1;
      i += 1;
    }
    const from = i;
    let value = 0;
    while (i < end && i - from < 4) {
      const c = text.charCodeAt(i) - 0x30;
      if (c < 0 || c > 9) break;
      value = value * 10 + c;
      i += 1;
    }
    const digits = i - from;
    if (digits === 0 || digits > 3 || value > 255 || (digits > 1 && text.charCodeAt(from) === 0x30)) return -1;
    address = address * 256 + value;
  }
  let bits = 32;
  if (i < end) {
    if (text.charCodeAt(i) !== 0x2f) return -1;
    const from = (i += 1);
    bits = 0;
    while (i < end) {
      const c = text.charCodeAt(i) - 0x30;
      if (c < 0 || c > 9 || i - from === 2) return -1;
      bits = bits * 10 + c;
      i += 1;
    }
    const digits = i - from;
    if (digits === 0 || bits > 32 || (digits > 1 && text.charCodeAt(from) === 0x30)) return -1;
  }
  out[0] = bits;
  return address;
}

/** The fewest CIDR blocks that cover exactly start..end (inclusive), in order, as numbers. */
const pushRange = (blocks: Blocks, start: number, end: number) => eachCidrBlock(start, end, (address, mask) => blocks.push(address, mask));

/**
 * Reads an import file: blank lines dropped; `start~end` expanded to the CIDR blocks that cover exactly that
 * range; `a.b.c.*` expanded to a.b.c.1 .. a.b.c.255; other lines taken as they are, /32 where no mask is given.
 * Lines that are none of these are counted and the first NAMED_PROBLEMS named with their 1-based line number.
 */
export function readImportFile(text: string): ImportBlocks {
  const blocks = new Blocks();
  const problems: ImportProblem[] = [];
  let problemCount = 0;
  const mask = new Uint8Array(1);
  const problem = (line: number, lineText: string, reason: ImportReason) => {
    problemCount += 1;
    if (problems.length < NAMED_PROBLEMS) problems.push({ line, text: lineText, reason });
  };
  let number = 0;
  for (let from = 0; from <= text.length; ) {
    let to = text.indexOf('\n', from);
    if (to === -1) to = text.length;
    number += 1;
    // /\r?\n/ splits: a \r before the \n belongs to the line break; trim() then drops the same spaces as the kernel.
    const line = text.slice(from, to > from && text.charCodeAt(to - 1) === 0x0d ? to - 1 : to).trim();
    from = to + 1;
    if (line === '') continue;
    if (line.includes('~')) {
      const [first, second, extra] = line.split('~').map((part) => part.trim());
      const start = parseIpv4(first);
      const end = parseIpv4(second ?? '');
      if (extra !== undefined || start === null || end === null) problem(number, line, 'range');
      else if (start > end) problem(number, line, 'backwards');
      else pushRange(blocks, start, end);
    } else if (line.includes('*')) {
      const base = parseIpv4(line.replace('*', '0'));
      if (base === null || !line.endsWith('.*') || line.indexOf('*') !== line.length - 1) problem(number, line, 'wildcard');
      else pushRange(blocks, base + 1, base + 255);
    } else {
      const address = parseCidr(line, mask);
      if (address < 0) problem(number, line, 'address');
      else blocks.push(address, mask[0]);
    }
  }
  return { addresses: blocks.addresses, bits: blocks.bits, count: blocks.count, problems, problemCount };
}

/** Block i as the import stores it: `10.0.0.0/30`. */
export function blockText(blocks: Pick<ImportBlocks, 'addresses' | 'bits'>, i: number): string {
  const a = blocks.addresses[i];
  return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}/${blocks.bits[i]}`;
}

/** The first `n` blocks as text, for the preview. */
export function firstBlocks(blocks: ImportBlocks, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.min(n, blocks.count); i += 1) out.push(blockText(blocks, i));
  return out;
}

/** The longest entry: `{"ip":"255.255.255.255/32","vendor":""},` without the vendor. */
const ENTRY_BYTES = 40;

/**
 * The addArray body `{"ips":[{"ip":"1.2.3.4/32","vendor":"lg"},...]}` as UTF-8 bytes, written digit by digit
 * (a 450,000-address body of 20 MB in tens of milliseconds, and no string of that size on any heap).
 */
export function addArrayBody(blocks: ImportBlocks, vendor: string): Uint8Array<ArrayBuffer> {
  const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
  if (!/^[a-z]+$/.test(vendor)) throw new Error(`not a vendor: ${vendor}`);
  const head = ascii('{"ips":[');
  const open = ascii('{"ip":"');
  const close = ascii(`","vendor":"${vendor}"}`);
  const bytes = new Uint8Array(head.length + blocks.count * (ENTRY_BYTES + vendor.length) + 2);
  let at = 0;
  const put = (codes: number[]) => {
    for (const c of codes) bytes[at++] = c;
  };
  const putNumber = (n: number) => {
    if (n >= 100) bytes[at++] = 0x30 + Math.floor(n / 100);
    if (n >= 10) bytes[at++] = 0x30 + (Math.floor(n / 10) % 10);
    bytes[at++] = 0x30 + (n % 10);
  };
  put(head);
  for (let i = 0; i < blocks.count; i += 1) {
    if (i > 0) bytes[at++] = 0x2c;
    put(open);
    const a = blocks.addresses[i];
    putNumber(a >>> 24);
    bytes[at++] = 0x2e;
    putNumber((a >>> 16) & 255);
    bytes[at++] = 0x2e;
    putNumber((a >>> 8) & 255);
    bytes[at++] = 0x2e;
    putNumber(a & 255);
    bytes[at++] = 0x2f;
    putNumber(blocks.bits[i]);
    put(close);
  }
  put([0x5d, 0x7d]);
  return bytes.subarray(0, at);
}
