import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { overrides } from '../overrides';
import { widgetOverrides } from '../overrides/widgets';
import { Boot } from './mui/Boot';

// This application's bespoke parts, handed to the engine at start-up (the engine never imports overrides/).
const appOverrides = { ...overrides, widgets: widgetOverrides };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Boot overrides={appOverrides} />
  </StrictMode>,
);
