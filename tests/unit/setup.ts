import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { overrides } from '../../overrides';
import { widgetOverrides } from '../../overrides/widgets';
import { loadLanguage } from '../../src/core/i18n/i18n';
import { installOverrides } from '../../src/registry/installed';

// The application's overrides, handed to the engine as src/main.tsx does.
installOverrides({ ...overrides, widgets: widgetOverrides });
// The Russian dictionary, which the panel loads when Russian is chosen, ready for every test.
await loadLanguage('ru');

// findBy and waitFor give up after 1 s by default: a busy 2-core machine (the server and browser files run beside
// these) can take longer to draw a whole MUI screen in jsdom. A passing wait returns as soon as it passes.
configure({ asyncUtilTimeout: 5000 });

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  // A file that runs in Node (a socket test, `@vitest-environment node`) has no storage to clear.
  globalThis.localStorage?.clear();
});
