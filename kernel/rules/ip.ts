// The IPv4 rules, once for the whole application: the `ipv4cidr` format of record schemas (server input and
// the panel's precompiled form validators), the office-IP box, the device lookup's address ranges and the tester
// IP import (SPEC section 5, "Tester IP form", "IP import"). Pure functions, no DOM.

/** One part of a dotted address: 0-255 without leading zeros (as ajv-formats' `ipv4`). */
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** A mask of 0-32. */
const MASK = '(3[0-2]|[12]?\\d)';

/** A dotted IPv4 address: `IPV4.test('10.0.0.1') === true`, `IPV4.test('01.2.3.4') === false`. */
export const IPV4 = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);
/** The `ipv4cidr` format: an address with an optional /mask of 0-32. */
export const IPV4_CIDR = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}(/${MASK})?$`);

/** Parses "a.b.c.d" into a 32-bit number, or null when it is not an address. */
export function parseIpv4(text: string): number | null {
  const m = IPV4.exec(text);
  if (!m) return null;
  let value = 0;
  for (let i = 1; i <= 4; i += 1) value = value * 256 + Number(m[i]);
  return value;
}

export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** True for a dotted IPv4 address with an optional /mask of 0-32: `isIpv4Cidr('10.0.0.1/24') === true`. */
export function isIpv4Cidr(text: string): boolean {
  return IPV4_CIDR.test(text);
}

/** The first and last address of a block, as 32-bit numbers: `cidrBounds('10.0.0.0/30')` -> [167772160, 167772163]. */
export function cidrBounds(cidr: string): [number, number] | null {
  // One match gives the four parts and the mask (a million blocks are read at a time).
  const m = IPV4_CIDR.exec(cidr);
  if (!m) return null;
  const address = ((Number(m[1]) * 256 + Number(m[2])) * 256 + Number(m[3])) * 256 + Number(m[4]);
  const bits = m[6] === undefined ? 32 : Number(m[6]);
  const size = 2 ** (32 - bits);
  const start = Math.floor(address / size) * size;
  return [start, start + size - 1];
}

/** Adds the default mask /32 where none is given: `withMask('1.2.3.4') === '1.2.3.4/32'`. */
export function withMask(text: string): string {
  return text.includes('/') ? text : `${text}/32`;
}

/**
 * The fewest CIDR blocks that cover exactly start..end (inclusive), in order, each handed to `block` as its first
 * address and mask: the IP import's worker keeps them as numbers. @example eachCidrBlock(1, 2, (a, m) => ...)
 */
export function eachCidrBlock(start: number, end: number, block: (address: number, mask: number) => void): void {
  let cursor = start;
  while (cursor <= end) {
    // The largest block that starts at cursor (aligned) and does not pass end.
    let size = 1;
    let bits = 0;
    while (bits < 32 && cursor % (size * 2) === 0 && cursor + size * 2 - 1 <= end) {
      size *= 2;
      bits += 1;
    }
    block(cursor, 32 - bits);
    cursor += size;
  }
}

/** The fewest CIDR blocks that cover exactly start..end (inclusive), in order. */
export function rangeToCidrs(start: number, end: number): string[] {
  const blocks: string[] = [];
  eachCidrBlock(start, end, (address, mask) => blocks.push(`${formatIpv4(address)}/${mask}`));
  return blocks;
}

/** Why an import line is not taken, by a stable code, with its English sentence (a client words it in its language). */
export const IMPORT_REASON_TEXT = {
  range: 'a range must be two IPv4 addresses: start~end',
  backwards: 'the range ends before it starts',
  wildcard: 'a wildcard must be the last part: a.b.c.*',
  address: 'not an IPv4 address with an optional /mask of 0-32',
} as const;

export type ImportReason = keyof typeof IMPORT_REASON_TEXT;

export interface ImportProblem {
  line: number;
  text: string;
  reason: ImportReason;
}

export interface ImportResult {
  ips: string[];
  problems: ImportProblem[];
}

/**
 * Reads an import file: blank lines dropped; `start~end` expanded to the CIDR blocks that cover exactly that
 * range; `a.b.c.*` expanded to a.b.c.1 .. a.b.c.255; other lines taken as they are; /32 added where absent.
 * Lines that are none of these are reported with their 1-based line number and not imported.
 * Example: `parseIpImport('10.0.0.0~10.0.0.3\n\n1.2.3.4')` gives ips `['10.0.0.0/30', '1.2.3.4/32']`.
 */
export function parseIpImport(text: string): ImportResult {
  const ips: string[] = [];
  const problems: ImportProblem[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index].trim();
    if (line === '') continue;
    const problem = (reason: ImportReason) => problems.push({ line: index + 1, text: line, reason });
    if (line.includes('~')) {
      const [from, to, extra] = line.split('~').map((part) => part.trim());
      const start = parseIpv4(from);
      const end = parseIpv4(to ?? '');
      if (extra !== undefined || start === null || end === null) problem('range');
      else if (start > end) problem('backwards');
      else ips.push(...rangeToCidrs(start, end));
    } else if (line.includes('*')) {
      const base = parseIpv4(line.replace('*', '0'));
      if (base === null || !line.endsWith('.*') || line.indexOf('*') !== line.length - 1) problem('wildcard');
      else ips.push(...rangeToCidrs(base + 1, base + 255));
    } else if (isIpv4Cidr(line)) {
      ips.push(withMask(line));
    } else {
      problem('address');
    }
  }
  return { ips, problems };
}
