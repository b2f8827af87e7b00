// IP lists for tester whitelists: the rules of SPEC section 5 ("Tester IP form", "IP import"), shared by the
// import modal, the tester-IP form and the server's addArray check. Pure functions, no DOM.

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Parses "a.b.c.d" into a 32-bit number, or null when a part is not 0-255. */
export function parseIpv4(text: string): number | null {
  const m = DOTTED.exec(text);
  if (!m) return null;
  let value = 0;
  for (let i = 1; i <= 4; i += 1) {
    const part = Number(m[i]);
    if (part > 255) return null;
    value = value * 256 + part;
  }
  return value;
}

export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** True for a dotted IPv4 address with an optional /mask of 0-32: `isIpv4Cidr('10.0.0.1/24') === true`. */
export function isIpv4Cidr(text: string): boolean {
  const [address, mask, extra] = text.split('/');
  if (extra !== undefined || parseIpv4(address) === null) return false;
  return mask === undefined || (/^\d{1,2}$/.test(mask) && Number(mask) <= 32);
}

/** Adds the default mask /32 where none is given: `withMask('1.2.3.4') === '1.2.3.4/32'`. */
export function withMask(text: string): string {
  return text.includes('/') ? text : `${text}/32`;
}

/** The fewest CIDR blocks that cover exactly start..end (inclusive), in order. */
export function rangeToCidrs(start: number, end: number): string[] {
  const blocks: string[] = [];
  let cursor = start;
  while (cursor <= end) {
    // The largest block that starts at cursor (aligned) and does not pass end.
    let size = 1;
    let bits = 0;
    while (bits < 32 && cursor % (size * 2) === 0 && cursor + size * 2 - 1 <= end) {
      size *= 2;
      bits += 1;
    }
    blocks.push(`${formatIpv4(cursor)}/${32 - bits}`);
    cursor += size;
  }
  return blocks;
}

export interface ImportProblem {
  line: number;
  text: string;
  reason: string;
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
    const problem = (reason: string) => problems.push({ line: index + 1, text: line, reason });
    if (line.includes('~')) {
      const [from, to, extra] = line.split('~').map((part) => part.trim());
      const start = parseIpv4(from);
      const end = parseIpv4(to ?? '');
      if (extra !== undefined || start === null || end === null) problem('a range must be two IPv4 addresses: start~end');
      else if (start > end) problem('the range ends before it starts');
      else ips.push(...rangeToCidrs(start, end));
    } else if (line.includes('*')) {
      const base = parseIpv4(line.replace('*', '0'));
      if (base === null || !line.endsWith('.*') || line.indexOf('*') !== line.length - 1) problem('a wildcard must be the last part: a.b.c.*');
      else ips.push(...rangeToCidrs(base + 1, base + 255));
    } else if (isIpv4Cidr(line)) {
      ips.push(withMask(line));
    } else {
      problem('not an IPv4 address with an optional /mask of 0-32');
    }
  }
  return { ips, problems };
}
