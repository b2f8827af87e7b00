// The react-admin app of the client benchmark, built as the panel is (the same Vite and React plugin); the
// benchmark passes --outDir so nothing is written inside the repository.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: { emptyOutDir: true },
});
