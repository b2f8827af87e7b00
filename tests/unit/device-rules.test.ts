// Pure rules of the device side: matching an address against the tester IP list, the A/B group choice and the
// chance draw, and the query the Test request screen sends.
import { describe, expect, it } from 'vitest';
import { chooseGroup, pickedByChance } from '../../server/actions/device/collect.ts';
import { cidrBounds, ipRanges } from '../../server/actions/device/ip-ranges.ts';
import { EMPTY_FORM, ipProblem, lookupParams, lookupUrl } from '../../overrides/test-request/test-request.ts';
import { menuFor } from '../../src/core/access/access';
import { manifests } from './render';

describe('tester IP ranges', () => {
  it('matches an address inside any block, and nothing else', () => {
    const ranges = ipRanges(['10.0.0.0/24', '192.168.1.7', '172.16.0.0/12', 'not-an-ip', '1.2.3.4/33']);
    for (const ip of ['10.0.0.0', '10.0.0.255', '192.168.1.7', '172.16.0.1', '172.31.255.255']) expect(ranges.contains(ip), ip).toBe(true);
    for (const ip of ['10.0.1.0', '192.168.1.8', '172.32.0.0', '9.255.255.255', '', '::1', '1.2.3.4']) expect(ranges.contains(ip), ip).toBe(false);
  });

  it('merges overlapping and adjacent blocks into few intervals', () => {
    expect(ipRanges(['10.0.0.0/25', '10.0.0.128/25', '10.0.0.5', '10.0.1.0/24', '11.0.0.0/8']).intervals).toBe(2);
    expect(ipRanges([]).contains('1.1.1.1')).toBe(false);
  });

  it('aligns a block given with host bits set, as a router would', () => {
    expect(cidrBounds('10.0.0.77/30')).toEqual([167772236, 167772239]);
    expect(cidrBounds('0.0.0.0/0')).toEqual([0, 2 ** 32 - 1]);
    expect(ipRanges(['0.0.0.0/0']).contains('255.255.255.255')).toBe(true);
  });

  it('finds an address among a million blocks', () => {
    const blocks = Array.from({ length: 1_000_000 }, (_, i) => `${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}.0/32`);
    const ranges = ipRanges(blocks);
    expect(ranges.contains('3.4.5.0')).toBe(true);
    expect(ranges.contains('3.4.5.1')).toBe(false);
  });
});

describe('A/B assignment', () => {
  it('puts a device in the least filled group that is not full, ties to the first', () => {
    const groups = [{ count: 2 }, { count: 4 }, { count: 0 }].map((g) => ({ ...g, groupName: null, customUrl: null, files: {} }));
    expect(chooseGroup(groups, new Map())).toBe(1);
    expect(chooseGroup(groups, new Map([[1, 1]]))).toBe(2);
    expect(chooseGroup(groups, new Map([[1, 1], [2, 2]]))).toBe(1);
    expect(chooseGroup(groups, new Map([[1, 2], [2, 3]]))).toBe(2);
    expect(chooseGroup(groups, new Map([[1, 2], [2, 4]]))).toBeNull();
  });

  it('draws the same answer for the same device, none at 0 and all at 1', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `dev-${i}`);
    expect(ids.filter((id) => pickedByChance(7, id, 0))).toEqual([]);
    expect(ids.filter((id) => pickedByChance(7, id, 1))).toHaveLength(1000);
    const half = ids.filter((id) => pickedByChance(7, id, 0.5)).length;
    expect(half).toBeGreaterThan(430);
    expect(half).toBeLessThan(570);
    expect(ids.map((id) => pickedByChance(7, id, 0.3))).toEqual(ids.map((id) => pickedByChance(7, id, 0.3)));
  });
});

describe('Test request query', () => {
  it('sends the platform as JSON with its name and leaves empty fields out', () => {
    expect(lookupParams({ ...EMPTY_FORM, platform: ' tizen ', whitelabel: 'acme' })).toEqual({ platform: '{"name":"tizen"}', whitelabel: 'acme' });
    expect(lookupUrl('http://panel.example/', '/v1/combination/get', { appInstallId: 'tv 1', ipAddress: '10.0.0.1', whitelabel: 'acme', platform: 'tizen', resolution: '1080p' })).toBe(
      'http://panel.example/v1/combination/get?platform=%7B%22name%22%3A%22tizen%22%7D&ipAddress=10.0.0.1&appInstallId=tv+1&whitelabel=acme&resolution=1080p',
    );
    expect(lookupUrl('', '/v1/combination/get', EMPTY_FORM)).toBe('/v1/combination/get');
  });

  it('accepts an empty IP or a dotted IPv4 address only', () => {
    expect(ipProblem('')).toBeNull();
    expect(ipProblem(' 10.0.0.1 ')).toBeNull();
    expect(ipProblem('10.0.0.256')).toMatch(/IPv4/);
    expect(ipProblem('10.0.0.1/24')).toMatch(/IPv4/);
  });
});

describe('Test request in the menu', () => {
  it('is an entry for admins and developers, and for no other role', () => {
    const routes = (role: 'admin' | 'developer' | 'tester' | 'customercare') =>
      menuFor(manifests().all, role).flatMap((e) => (e.kind === 'group' ? e.items : [e])).map((l) => `${l.label} ${l.route}`);
    expect(routes('admin')).toContain('Test request /testRequest');
    expect(routes('developer')).toContain('Test request /testRequest');
    expect(routes('tester').join()).not.toContain('/testRequest');
    expect(routes('customercare').join()).not.toContain('/testRequest');
  });
});
