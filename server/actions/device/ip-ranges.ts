// Address matching for the device lookup: is the caller's IPv4 address inside any block of a CIDR list (the
// tester IP list). Parsing uses the IP rules of kernel/rules/ip.ts; the list becomes sorted,
// merged intervals, so a lookup is a binary search however many blocks (the import allows a million) there are.
import { cidrBounds, parseIpv4 } from '../../../kernel/rules/ip.ts';

export { cidrBounds };

export interface IpRanges {
  /** True when `ip` (dotted IPv4) is inside one of the blocks; false for anything that is not an address. */
  contains(ip: string): boolean;
  /** How many merged intervals the list became (for logs and tests). */
  readonly intervals: number;
}

/** @example ipRanges(['10.0.0.0/24', '1.2.3.4']).contains('10.0.0.7') === true; blocks that are not CIDRs are skipped. */
export function ipRanges(blocks: Iterable<string>): IpRanges {
  const bounds: [number, number][] = [];
  for (const block of blocks) {
    const b = cidrBounds(block);
    if (b) bounds.push(b);
  }
  bounds.sort((a, b) => a[0] - b[0]);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const [start, end] of bounds) {
    const last = ends.length - 1;
    if (last >= 0 && start <= ends[last] + 1) ends[last] = Math.max(ends[last], end);
    else {
      starts.push(start);
      ends.push(end);
    }
  }
  return {
    intervals: starts.length,
    contains(ip) {
      const value = parseIpv4(ip);
      if (value === null) return false;
      // The last interval that starts at or before the address.
      let low = 0;
      let high = starts.length - 1;
      let found = -1;
      while (low <= high) {
        const mid = (low + high) >> 1;
        if (starts[mid] <= value) {
          found = mid;
          low = mid + 1;
        } else high = mid - 1;
      }
      return found >= 0 && value <= ends[found];
    },
  };
}
