// Menus and route decisions as each role gets them from the product's manifests.
import { describe, expect, it } from 'vitest';
import { guardRoute, menuFor, type MenuEntry } from '../../src/core/access/access';
import { recordNoun } from '../../kernel/manifest/fields';
import { manifest, manifests } from './render';

const labels = (entries: MenuEntry[]) => entries.map((e) => (e.kind === 'group' ? `${e.label}: ${e.items.map((i) => i.label).join(', ')}` : e.label));

describe('menu by role', () => {
  it('gives customercare App Info alone, as a plain entry rather than a one-item dropdown', () => {
    expect(menuFor(manifests().all, 'customercare')).toEqual([expect.objectContaining({ kind: 'link', label: 'App Info', route: '/appinfo' })]);
  });

  it('gives the tester combinations, builds and the tester lists, and no users or A/B', () => {
    const menu = labels(menuFor(manifests().all, 'tester')).join(' | ');
    expect(menu).toContain('Combinations');
    expect(menu).toContain('Builds');
    expect(menu).toContain('Tester IPs');
    expect(menu).toContain('Tester emails');
    expect(menu).not.toContain('Users');
    expect(menu).not.toContain('A/B');
  });

  it('shows UsersInfo to the admin only', () => {
    expect(labels(menuFor(manifests().all, 'admin')).some((l) => l.startsWith('UsersInfo: Users, Users logs'))).toBe(true);
    expect(labels(menuFor(manifests().all, 'developer')).some((l) => l.startsWith('UsersInfo'))).toBe(false);
  });
});

describe('route guard', () => {
  it('sends a tester to /testerIP and customercare to /appinfo, and cancels a developer', () => {
    expect(guardRoute(['admin'], 'tester')).toEqual({ kind: 'redirect', to: '/testerIP' });
    expect(guardRoute(['admin'], 'customercare')).toEqual({ kind: 'redirect', to: '/appinfo' });
    expect(guardRoute(['admin'], 'developer')).toEqual({ kind: 'cancel' });
    expect(guardRoute(['admin'], null)).toEqual({ kind: 'login' });
  });
});

describe('record nouns for modal titles', () => {
  it('makes one record of a title: addresses, acronyms and plain plurals', () => {
    expect(recordNoun(manifest('testerIP'))).toMatch(/IP address$/);
    expect(recordNoun(manifest('wlConfig'))).toBe('WL config');
    expect(recordNoun(manifest('platform'))).toBe('platform');
  });
});
