import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { overrides } from '../../overrides';
import { widgetOverrides } from '../../overrides/widgets';
import { installOverrides } from '../../src/registry/installed';

// The application's overrides, handed to the engine as src/main.tsx does.
installOverrides({ ...overrides, widgets: widgetOverrides });

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
});
