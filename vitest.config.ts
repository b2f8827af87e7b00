import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { formValidators } from './scripts/build/form-validators.ts';
import { schemasFolder } from './scripts/build/schemas-folder.ts';

// Three suites, one command: unit/component tests in jsdom, server integration tests (every case on SQLite
// and PostgreSQL), and end-to-end tests that drive the built panel in Chromium against the real server.
export default defineConfig({
  // The component tests' server adds the engine fixtures to schemas/, so their forms are compiled too.
  plugins: [react(), schemasFolder('schemas'), formValidators(['schemas', 'tests/server/fixtures'])],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          // Two worker threads: child processes (Vitest's default pool) cost more to start and the files ran one
          // at a time; alone on this 2-core machine the unit files took 87.6 s that way, 55.4 s this way.
          pool: 'threads',
          maxWorkers: 2,
          // The component tests render whole MUI screens in jsdom, which a busy 2-core machine makes slow.
          testTimeout: 20_000,
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
          globalSetup: ['tests/unit/server-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One file at a time. Two at a time took them from 19.4 to 13.9 min alone, but beside the browser files three
          // runs of npm test each failed a different timing-bound case (login back-offs of 1 s, a restore's stop):
          // those cases need a core that two files and a browser do not share.
          fileParallelism: false,
          // The files share one module graph: each builds its own apps, databases and processes, and no file mocks a
          // module. Loading the server's modules again for each of the 50 files took ~60 s of the suite's ~590 s.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // What a poll waits for in a browser (a URL put back, a socket's rows) can take seconds beside the server
          // files on a busy machine; Vitest's default gives up after one.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
          // As the server files: each file starts its own server processes and Chromium.
          isolate: false,
        },
      },
    ],
  },
});
