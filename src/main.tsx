import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Boot } from './mui/Boot';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Boot />
  </StrictMode>,
);
