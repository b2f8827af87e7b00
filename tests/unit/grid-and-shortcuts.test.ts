// The grid's header sorting maps to the list's URL sort, its preferences survive bad storage, and the keyboard
// shortcuts never fire while the user types.
import { describe, expect, it } from 'vitest';
import { shortcutOf } from '../../src/core/shortcuts';
import { formatValue } from '../../src/core/list/format-value';
import { formatDateTime, localDateTime, setLang } from '../../src/core/i18n/i18n';
import { gridPreferencesKey, readGridPreferences, writeGridPreferences } from '../../src/mui/grid/grid-preferences';
import { fromSortModel, toSortModel } from '../../src/mui/grid/sort-model';

describe('header sorting', () => {
  const columns = ['id', 'whitelabel.name', 'description'];
  it('shows the URL sort on the column of that field, and none for a field without a column', () => {
    expect(toSortModel(columns, { by: 'whitelabel.name', order: 'desc' })).toEqual([{ field: 'col1', sort: 'desc' }]);
    expect(toSortModel(columns, { by: 'createdAt', order: 'asc' })).toEqual([]);
    expect(toSortModel(columns, { by: null, order: 'asc' })).toEqual([]);
  });
  it('turns a header click into the URL sort, ignores columns the server cannot sort, and clears on the third click', () => {
    expect(fromSortModel([{ field: 'col1', sort: 'asc' }], columns, ['id', 'whitelabel.name'])).toEqual({ by: 'whitelabel.name', order: 'asc' });
    expect(fromSortModel([{ field: 'col2', sort: 'asc' }], columns, ['id', 'whitelabel.name'])).toEqual({ by: null, order: 'asc' });
    expect(fromSortModel([], columns, ['id'])).toEqual({ by: null, order: 'asc' });
  });
});

describe('cell texts', () => {
  it('shows a date-time as the language writes it, in UTC and saying so, the same text as everywhere else in the panel', async () => {
    const iso = '2026-11-23T15:04:05.000Z';
    const schema = { type: 'string', format: 'date-time' } as const;
    expect(formatValue(iso, schema)).toBe('11/23/2026, 3:04:05 PM UTC');
    expect(localDateTime(iso)).toMatch(/^11\/23\/2026, \d+:04:05 [AP]M \(.+\)$/);
    await setLang('ru');
    expect(formatValue(iso, schema)).toBe('23.11.2026, 15:04:05 UTC');
    expect(formatValue(iso, schema)).toBe(formatDateTime(iso));
    await setLang('en');
    expect(formatValue('not a date', schema)).toBe('not a date');
  });
});

describe('grid preferences', () => {
  it('keeps each user their own, and falls back to the defaults on anything malformed', () => {
    const mine = gridPreferencesKey('a@x.io', 'platform');
    writeGridPreferences(mine, { hidden: ['createdAt'], widths: { name: 300 }, density: 'compact' });
    expect(readGridPreferences(mine)).toEqual({ hidden: ['createdAt'], widths: { name: 300 }, density: 'compact' });
    expect(readGridPreferences(gridPreferencesKey('b@x.io', 'platform'))).toEqual({ hidden: [], widths: {}, density: 'standard' });
    localStorage.setItem(mine, '{not json');
    expect(readGridPreferences(mine).density).toBe('standard');
    localStorage.setItem(mine, JSON.stringify({ hidden: 'x', widths: { name: -5, id: 'wide', ip: 120 }, density: 'tiny' }));
    expect(readGridPreferences(mine)).toEqual({ hidden: [], widths: { ip: 120 }, density: 'standard' });
  });
});

describe('keyboard shortcuts', () => {
  const key = (k: string, extra: Partial<Parameters<typeof shortcutOf>[0]> = {}) => shortcutOf({ key: k, typing: false, inDialog: false, ...extra });
  it('maps / n ? on the page, and Ctrl+Enter or Cmd+Enter in a form', () => {
    expect([key('/'), key('n'), key('?')]).toEqual(['filter', 'add', 'help']);
    expect(key('Enter', { ctrlKey: true, inDialog: true, typing: true })).toBe('submit');
    expect(key('Enter', { metaKey: true, inDialog: true })).toBe('submit');
  });
  it('leaves letters to the user while typing, and to the open dialog', () => {
    expect([key('/', { typing: true }), key('n', { typing: true }), key('?', { typing: true })]).toEqual([null, null, null]);
    expect([key('/', { inDialog: true }), key('n', { inDialog: true })]).toEqual([null, null]);
    expect([key('n', { ctrlKey: true }), key('Enter', { ctrlKey: true }), key('Enter')]).toEqual([null, null, null]);
  });
});
