// ru/en: every text the panel shows has a Russian translation, English reads exactly as written, the spec's
// Russian texts stay Russian in both languages, and dates, numbers and server refusals follow the language.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dictionary, formatDateTime, formatNumber, language, setLang, t, translate } from '../../src/core/i18n/i18n';
import { localizeManifest, manifestTexts } from '../../src/core/i18n/manifest-texts';
import { CODE_TEXT, refusalFieldTexts, refusalText } from '../../src/core/i18n/messages';
import { menuFor, type MenuEntry } from '../../src/core/access/access';
import { AMOUNT_TEXT, FORMAT_TEXT, PROBLEM_TEXT, TYPE_TEXT } from '../../kernel/manifest/error-text';
import { EXPERIMENT_RULE_TEXT } from '../../kernel/rules/experiment';
import { IMPORT_REASON_TEXT } from '../../kernel/rules/ip';
import { RJSF_TEXTS } from '../../src/mui/rjsf-strings';
import { bundledManifests } from '../../src/core/manifest/bundled';

const ru = dictionary('ru');
const manifests = () => bundledManifests().all;

/** The spec's own Russian texts (SPEC 1 and 7): quoted requirements, the same in both languages. */
const SPEC_RUSSIAN = [
  'Нет доступа!',
  'Требуется загрузить изображение 1280x720',
  'Требуется загрузить изображение 1920x1080',
  'Требуется загрузить CSS',
  'Требуется указать {field}',
  'Пожалуйста исправьте указанные ошибки:',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every literal the UI code passes to t(): t('...') or t("...") (a variable is checked where its texts are declared). */
function sourceTexts(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of [...sourceFiles('src'), ...sourceFiles('overrides')]) {
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\bt\(\s*(['"])((?:(?!\1)[^\\]|\\.)*)\1(?:, \{ context: '(\w+)' \})?/g)) {
      const text = m[2].replace(/\\(.)/g, '$1');
      found.set(m[3] ? `${text} [${m[3]}]` : text, file);
    }
  }
  return found;
}

function manifestTextMap(): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of manifests()) for (const text of manifestTexts(m)) found.set(text, `schemas/${m.entity}.json`);
  return found;
}

/**
 * The texts the panel words by code, kept in tables beside the code that uses them: the refusals' problems and
 * their parts (kernel/manifest/error-text.ts), the codes' own words, the experiment rules, the IP import's
 * reasons and RJSF's texts.
 */
const MESSAGE_TEXTS = [
  ...Object.values(PROBLEM_TEXT),
  ...Object.values(AMOUNT_TEXT).flat(),
  '{label}, item {n},',
  ' or ',
  'empty',
  '{what} or empty',
  'in the {format} format',
  ...Object.values(FORMAT_TEXT),
  ...Object.values(TYPE_TEXT),
  ...Object.values(CODE_TEXT),
  ...Object.values(EXPERIMENT_RULE_TEXT),
  ...Object.values(IMPORT_REASON_TEXT),
  ...RJSF_TEXTS,
];

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the Russian dictionary', () => {
  it('translates every text of the manifests a person reads', () => {
    const missing = [...manifestTextMap()].filter(([text]) => !ru[text]).map(([text, file]) => `${file}: ${text}`);
    expect(missing).toEqual([]);
  });

  it('translates every text the UI code passes to t()', () => {
    const texts = sourceTexts();
    expect(texts.size).toBeGreaterThan(100);
    const missing = [...texts].filter(([text]) => !ru[text]).map(([text, file]) => `${file}: ${text}`);
    expect(missing).toEqual([]);
  });

  it('translates every text worded by code: refusals, experiment rules, import reasons, RJSF', () => {
    expect(MESSAGE_TEXTS.filter((text) => !ru[text])).toEqual([]);
  });

  it('keeps the placeholders of every text (a translation may leave one out), and holds no text nothing uses', () => {
    // Counted phrases are built from an English plural ("12 builds"); Russian says "записей: {count}" instead.
    const allowed = (en: string) => [...placeholders(en), ...(/^(Deleted \{what\}|(More than )?\{what\} match(es)? \{shown\}\.)$/.test(en) ? ['count'] : [])];
    const bad = Object.entries(ru).filter(([en, text]) => placeholders(text).some((p) => !allowed(en).includes(p)) || (placeholders(text).length === 0 && placeholders(en).length > 0));
    expect(bad).toEqual([]);
    const used = new Set([...sourceTexts().keys(), ...manifestTextMap().keys(), ...MESSAGE_TEXTS]);
    expect(Object.keys(ru).filter((key) => !used.has(key))).toEqual([]);
  });

  it('never translates the Russian texts of the spec', () => {
    for (const text of SPEC_RUSSIAN) {
      expect(ru[text]).toBeUndefined();
      expect(translate('ru', text)).toBe(text);
      expect(translate('en', text)).toBe(text);
      expect(refusalText({ message: text }, text, undefined, 'ru')).toBe(text);
    }
  });
});

describe('English', () => {
  it('shows every text exactly as written', () => {
    for (const text of [...sourceTexts().keys(), ...manifestTextMap().keys()]) expect(translate('en', text)).toBe(text);
    const m = manifests().find((x) => x.entity === 'build')!;
    expect(localizeManifest(m, 'en')).toBe(m);
  });
});

describe('switching the language', () => {
  it('is remembered in localStorage and read by t()', () => {
    setLang('ru');
    expect(localStorage.getItem('panel.lang')).toBe('ru');
    expect(document.documentElement.lang).toBe('ru');
    expect(t('Logout')).toBe('Выйти');
    setLang('en');
    expect(t('Logout')).toBe('Logout');
    expect(language.get()).toBe('en');
  });

  it('turns the menus, field titles and confirm questions of the manifests Russian, keeping field names and routes', () => {
    const all = manifests().map((m) => localizeManifest(m, 'ru'));
    const labels = (entries: MenuEntry[]) => entries.flatMap((e) => (e.kind === 'group' ? [e.label, ...e.items.map((i) => i.label)] : [e.label]));
    const menu = labels(menuFor(all, 'admin'));
    expect(menu).toContain('Сборки');
    expect(menu).toContain('Вайтлейблы');
    expect(menu).not.toContain('Builds');
    const build = all.find((m) => m.entity === 'build')!;
    expect(build.record?.properties.maxVersion.title).toBe('Макс. версия');
    expect(build.actions.destroyAll.ui?.confirm).toBe('Удалить все сборки?');
    expect(build.screen?.route).toBe('/builds');
    expect(Object.keys(build.record!.properties)).toEqual(Object.keys(manifests().find((m) => m.entity === 'build')!.record!.properties));
    expect(build.noun).toBe('сборка');
  });
});

describe('dates and numbers', () => {
  it('follow the language through Intl, a moment in UTC saying so', () => {
    expect(formatNumber(1234567.5, 'en')).toBe('1,234,567.5');
    expect(formatNumber(1234567.5, 'ru')).toBe('1\u00a0234\u00a0567,5');
    const date = new Date(Date.UTC(2026, 10, 23, 15, 4, 5));
    expect(formatDateTime(date, 'ru')).toBe('23.11.2026, 15:04:05 UTC');
    expect(formatDateTime(date, 'en')).toBe('11/23/2026, 3:04:05 PM UTC');
    expect(formatDateTime('not a date', 'ru')).toBe('not a date');
  });
});

describe('server refusals', () => {
  const titles = localizeManifest(manifests().find((m) => m.entity === 'combination')!, 'ru').record!.properties;
  const refused = (fields: object[], code = 'ERR_VALIDATION') => ({ result: false, code, message: 'English words', fields });

  it('word each bad field from its problem code and params, naming the field by its Russian title', () => {
    expect(refusalText(refused([{ field: 'buildId', message: 'x', problem: 'required', params: {} }]), 'x', titles, 'ru')).toBe('Поле «ID сборки» обязательно');
    expect(refusalText(refused([{ field: 'ipAddress', message: 'x', problem: 'format', params: { format: 'ipv4' } }]), 'x', titles, 'ru')).toBe(
      'Поле «IP-адрес» должно быть IPv4-адресом a.b.c.d (каждая часть 0–255)',
    );
    expect(refusalText(refused([{ field: 'customBuildUrls', message: 'x', problem: 'notEmpty', params: {}, path: ['customBuildUrls', '1'] }]), 'x', titles, 'ru')).toBe(
      'Поле «Пользовательские URL сборки, элемент 2» не должно быть пустым',
    );
    expect(refusalText(refused([{ field: 'appInstallId', message: 'x', problem: 'maxLength', params: { limit: 5 } }]), 'x', titles, 'ru')).toBe('Поле «ID установки приложения» должно содержать не больше 5 симв.');
    const together = refused(['whitelabelId', 'platformId'].map((field) => ({ field, message: 'x', problem: 'takenTogether', params: { fields: ['whitelabelId', 'platformId'] } })), 'ERR_UNIQUE');
    expect(refusalFieldTexts(together, titles, 'ru').platformId).toEqual(['Поля «ID вайтлейбла и ID платформы»: такое сочетание уже занято']);
  });

  it('word a refusal with no field by the manifests\' texts, else by its code; English stays the server\'s words', () => {
    expect(refusalText({ code: 'ERR_REFUSED' }, 'Admin users cannot be deleted', undefined, 'ru')).toBe('Пользователей с ролью admin удалять нельзя');
    expect(refusalText({ code: 'ERR_NO_ROUTE' }, 'No route GET /v1/nothing', undefined, 'ru')).toBe('На сервере нет такого вызова');
    expect(refusalText({ code: 'ERR_RATE_LIMIT' }, 'Too many attempts, try again in 30 s', undefined, 'ru')).toBe('Слишком много попыток, повторите позже');
    expect(refusalText({ code: 'ERR_SOMETHING_NEW' }, 'Something the dictionary never saw', undefined, 'ru')).toBe('Something the dictionary never saw');
    expect(refusalText(refused([{ field: 'name', message: 'Name is required', problem: 'required', params: {} }]), 'Name is required', titles, 'en')).toBe('Name is required');
  });
});
