import { describe, expect, it } from 'vitest';
import { isIpv4Cidr, parseIpImport, rangeToCidrs, parseIpv4, withMask } from '../../kernel/rules/ip';
import { NAMED_PROBLEMS, addArrayBody, blockText, firstBlocks, readImportFile } from '../../overrides/ip-import/import-file';

const ip = (text: string) => parseIpv4(text) as number;

describe('tester IP rules', () => {
  it('accepts a dotted address with an optional mask of 0-32 and nothing else', () => {
    expect(isIpv4Cidr('10.0.0.1')).toBe(true);
    expect(isIpv4Cidr('10.0.0.0/0')).toBe(true);
    expect(isIpv4Cidr('255.255.255.255/32')).toBe(true);
    for (const bad of ['256.1.1.1', '1.2.3.4/33', '1.2.3', '1.2.3.4/', '1.2.3.4/1/2', 'a.b.c.d', ' 1.2.3.4', '1.2.3.4/-1']) {
      expect(isIpv4Cidr(bad), bad).toBe(false);
    }
  });

  it('adds the default mask /32 only where none is given', () => {
    expect(withMask('1.2.3.4')).toBe('1.2.3.4/32');
    expect(withMask('1.2.3.0/24')).toBe('1.2.3.0/24');
  });
});

describe('range expansion', () => {
  it('covers an aligned range with one block', () => {
    expect(rangeToCidrs(ip('10.0.0.0'), ip('10.0.0.255'))).toEqual(['10.0.0.0/24']);
    expect(rangeToCidrs(0, 2 ** 32 - 1)).toEqual(['0.0.0.0/0']);
  });

  it('covers a range off the block boundaries with the fewest blocks, exactly', () => {
    expect(rangeToCidrs(ip('10.0.0.5'), ip('10.0.0.20'))).toEqual([
      '10.0.0.5/32', '10.0.0.6/31', '10.0.0.8/29', '10.0.0.16/30', '10.0.0.20/32',
    ]);
    expect(rangeToCidrs(ip('192.168.0.255'), ip('192.168.1.0'))).toEqual(['192.168.0.255/32', '192.168.1.0/32']);
  });

  it('covers every address of a range once and nothing outside it', () => {
    const start = ip('172.16.3.77');
    const end = ip('172.16.9.201');
    let covered = 0;
    let next = start;
    for (const block of rangeToCidrs(start, end)) {
      const [base, mask] = block.split('/');
      expect(ip(base)).toBe(next);
      const size = 2 ** (32 - Number(mask));
      expect(ip(base) % size).toBe(0);
      next += size;
      covered += size;
    }
    expect(next - 1).toBe(end);
    expect(covered).toBe(end - start + 1);
  });
});

describe('import file', () => {
  it('drops blank lines, expands ranges and wildcards, and adds /32', () => {
    const result = parseIpImport('10.0.0.0~10.0.0.3\n\n  \r\n1.2.3.4\n5.6.7.0/24\n9.9.9.*\n');
    expect(result.problems).toEqual([]);
    expect(result.ips).toEqual([
      '10.0.0.0/30', '1.2.3.4/32', '5.6.7.0/24',
      '9.9.9.1/32', '9.9.9.2/31', '9.9.9.4/30', '9.9.9.8/29', '9.9.9.16/28', '9.9.9.32/27', '9.9.9.64/26', '9.9.9.128/25',
    ]);
  });

  it('names every garbage line with its line number and imports none of them', () => {
    const result = parseIpImport('1.1.1.1\nhello\n300.1.1.1\n1.2.3.9~1.2.3.1\n1.*.3.4\n');
    expect(result.ips).toEqual(['1.1.1.1/32']);
    expect(result.problems.map((p) => [p.line, p.text])).toEqual([
      [2, 'hello'], [3, '300.1.1.1'], [4, '1.2.3.9~1.2.3.1'], [5, '1.*.3.4'],
    ]);
  });

  it('gives an empty list for a file of blank lines', () => {
    expect(parseIpImport('\n\n   \n')).toEqual({ ips: [], problems: [] });
  });
});

describe('the import file read in the worker (typed arrays)', () => {
  const asKernel = (text: string) => {
    const blocks = readImportFile(text);
    return { ips: Array.from({ length: blocks.count }, (_, i) => blockText(blocks, i)), problems: blocks.problems };
  };

  it('gives exactly what the kernel rules give, for good, bad and odd lines', () => {
    const files = [
      '10.0.0.0~10.0.0.3\n\n  \r\n1.2.3.4\n5.6.7.0/24\n9.9.9.*\n',
      '1.1.1.1\nhello\n300.1.1.1\n1.2.3.9~1.2.3.1\n1.*.3.4\n',
      '\n\n   \n',
      '0.0.0.0/0\n255.255.255.255\n255.255.255.255/32\n10.0.0.1/24\n 7.7.7.7 \t\r\n\u00a08.8.8.8\u00a0\r\n1.2.3.4/',
      '01.2.3.4\n1.2.3.04\n1.2.3.4/01\n1.2.3.4/00\n1.2.3.4/33\n1.2.3.4/320\n1.2.3.4x\n1.2.3\n1.2.3.4.5\n1..2.3\n1.2.3.4/1/2\n-1.2.3.4\n1.2.3.256\n1000.1.1.1',
      '1.2.3.4~1.2.3.4~1.2.3.5\n1.2.3.4 ~ 1.2.3.9\n0.0.0.0~255.255.255.255\n1.2.3.*\n1.2.*.*\n1.2.3.4*\n*.1.2.3\n1.2.3.*/24\n5.5.5.5\r',
      '192.168.0.255~192.168.1.0\r\n172.16.3.77~172.16.9.201',
    ];
    for (const file of files) expect(asKernel(file), JSON.stringify(file)).toEqual(parseIpImport(file));
  });

  it('counts every bad line but names only the first ones', () => {
    const lines = Array.from({ length: NAMED_PROBLEMS + 50 }, (_, i) => `bad ${i}`);
    const blocks = readImportFile(['1.2.3.4', ...lines].join('\n'));
    expect(blocks.count).toBe(1);
    expect(blocks.problemCount).toBe(NAMED_PROBLEMS + 50);
    expect(blocks.problems).toHaveLength(NAMED_PROBLEMS);
    expect(blocks.problems[0]).toEqual({ line: 2, text: 'bad 0', reason: 'address' });
  });

  it('writes the addArray body as the JSON the call takes, every address with the chosen vendor', () => {
    const text = '10.0.0.5~10.0.0.7\n255.255.255.255\n0.0.0.0/0\n9.9.9.*';
    const body = JSON.parse(new TextDecoder().decode(addArrayBody(readImportFile(text), 'samsung')));
    expect(body).toEqual({ ips: parseIpImport(text).ips.map((ip) => ({ ip, vendor: 'samsung' })) });
    expect(JSON.parse(new TextDecoder().decode(addArrayBody(readImportFile(''), 'lg')))).toEqual({ ips: [] });
  });

  it('reads 100,000 lines into 450,000 blocks and keeps the first ones for the preview', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => (i % 2 ? `12.${(i >> 8) & 255}.${i & 255}.*` : `13.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`));
    const blocks = readImportFile(lines.join('\n'));
    expect(blocks.count).toBe(50_000 * 8 + 50_000);
    expect(firstBlocks(blocks, 3)).toEqual(['13.0.0.0/32', '12.0.1.1/32', '12.0.1.2/31']);
  });
});
