import { describe, expect, it } from 'vitest';
import { english } from '../../kernel/manifest/error-text';
import { ERROR_HEADING, whitelabelErrors } from '../../overrides/whitelabel/rules';

const TITLES: Record<string, string> = { name: 'Name', feUrl: 'FE URL', deployConfiguration: 'Deploy configuration' };
const words = { label: (field: string) => TITLES[field], t: english };
const draft = { name: 'acme', feUrl: 'https://acme.tv/', deployConfiguration: '{"region":"eu"}' };

describe('whitelabel form rules', () => {
  it('names every missing text field by its title and every missing file on create, in the spec\'s words', () => {
    expect(whitelabelErrors({ name: '', feUrl: ' ', deployConfiguration: '' }, new Set(), null, words)).toEqual([
      'Требуется указать Name',
      'Требуется указать FE URL',
      'Требуется указать Deploy configuration',
      'Требуется загрузить изображение 1280x720',
      'Требуется загрузить изображение 1920x1080',
      'Требуется загрузить CSS',
    ]);
    expect(ERROR_HEADING).toBe('Пожалуйста исправьте указанные ошибки:');
  });

  it('accepts a create with every file chosen', () => {
    expect(whitelabelErrors(draft, new Set(['imageHD', 'imageFHD', 'cssConfig']), null, words)).toEqual([]);
  });

  it('on edit, accepts a missing file only when the stored asset is reachable', () => {
    expect(whitelabelErrors(draft, new Set(), { imageHD: true, imageFHD: true, cssConfig: true }, words)).toEqual([]);
    expect(whitelabelErrors(draft, new Set(['imageFHD']), { imageHD: true, imageFHD: false, cssConfig: false }, words)).toEqual(['Требуется загрузить CSS']);
  });

  it('refuses a deploy configuration that is not a JSON object', () => {
    expect(whitelabelErrors({ ...draft, deployConfiguration: '[1]' }, new Set(['imageHD', 'imageFHD', 'cssConfig']), null, words)).toEqual([
      'Deploy configuration must be a JSON object',
    ]);
  });
});
