import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { overrides } from '../../overrides';
import { widgetOverrides } from '../../overrides/widgets';
import { loadLanguage } from '../../src/core/i18n/i18n';
import { installOverrides } from '../../src/registry/installed';

// The application's overrides, handed to the engine as src/main.tsx does.
installOverrides({ ...overrides, widgets: widgetOverrides });
// The Russian dictionary, which the panel loads when Russian is chosen, ready for every test.
await loadLanguage('ru');

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
});
