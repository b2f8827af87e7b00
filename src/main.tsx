import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { OVERRIDE_NAMES } from '../overrides/names';
import type { DeferredOverrides } from './registry/installed';
import { Boot } from './mui/Boot';

// This application's bespoke parts, handed to the engine at start-up (the engine never imports overrides/):
// their names now, for the start-up check, and their code when the screens behind the login first draw.
const appOverrides: DeferredOverrides = {
  names: OVERRIDE_NAMES,
  load: async () => {
    const [{ overrides }, { widgetOverrides }] = await Promise.all([import('../overrides'), import('../overrides/widgets')]);
    return { ...overrides, widgets: widgetOverrides };
  },
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Boot overrides={appOverrides} />
  </StrictMode>,
);
