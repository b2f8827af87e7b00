// Lighthouse's accessibility score of the login page and of a list (issue 35: 100 on both), in Chromium, light and
// dark. Not part of npm test (a Lighthouse run takes a while); axe-core, which Lighthouse's audits are built on, runs
// on every screen in tests/e2e/accessibility.test.ts.
//   npx vite build && npm run bench lighthouse
// Chromium is the system's (CHROME_PATH, else /usr/bin/chromium), started by chrome-launcher with the e2e harness's
// flags; the panel's session is opened through its login screen in that same browser (playwright-core over CDP),
// and Lighthouse keeps it (disableStorageReset).
import { readFileSync } from 'node:fs';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { loginThroughScreen, startServer } from '../tests/e2e/harness.ts';
import { addWhitelabel } from '../tests/e2e/catalogue-helpers.ts';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Score {
  page: string;
  mode: string;
  score: number;
  failing: string[];
}

export async function lighthouseScores(): Promise<Score[]> {
  const server = await startServer();
  const chrome = await launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: FLAGS });
  const scores: Score[] = [];
  try {
    const token = await server.login();
    await server.api('GET', '/v1/admin/platform/add', { name: 'tizen', maxVersion: '01.20.34' }, token);
    await addWhitelabel(server, token, 'acme');
    for (let i = 0; i < 5; i++) await server.api('GET', '/v1/admin/testersEmails/add', { email: `t${i}@example.com`, active: i % 2 === 0 }, token);

    const run = async (page: string, mode: 'light' | 'dark') => {
      const result = await lighthouse(`${server.url}${page}`, {
        port: chrome.port,
        onlyCategories: ['accessibility'],
        disableStorageReset: true,
        formFactor: 'desktop',
        screenEmulation: { mobile: false, width: 1440, height: 900, deviceScaleFactor: 1, disabled: false },
        emulatedUserAgent: false,
        throttlingMethod: 'provided',
        logLevel: 'error',
      });
      const lhr = result!.lhr;
      // A list without the session would be the login page again: the score must be the list's.
      const shown = new URL(lhr.finalDisplayedUrl).pathname;
      if (shown !== page) throw new Error(`Lighthouse ended on ${shown}, not ${page}`);
      const failing = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary').map((a) => a.id);
      scores.push({ page, mode, score: Math.round((lhr.categories.accessibility.score ?? 0) * 100), failing });
    };

    // The mode is the user's pick, kept in the browser (core/theme-mode.ts), set before each mode's runs.
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const context = browser.contexts()[0];
    for (const mode of ['light', 'dark'] as const) {
      const setup = await context.newPage();
      await setup.goto(`${server.url}/login`);
      await setup.evaluate((m) => {
        localStorage.clear();
        localStorage.setItem('panel.theme', m);
      }, mode);
      await run('/login', mode);
      await loginThroughScreen(setup, server);
      await run('/testerEmails', mode);
      await run('/platforms', mode);
      await setup.close();
    }
    await browser.close().catch(() => undefined);
  } finally {
    chrome.kill();
    await server.stop();
  }
  return scores;
}

/** Prints each page's score in each mode, with the audits that fail, and the load average. */
export async function lighthouseReport(): Promise<void> {
  const scores = await lighthouseScores();
  for (const s of scores) console.log(`lighthouse accessibility ${s.mode.padEnd(5)} ${s.page.padEnd(14)} ${s.score}${s.failing.length ? `  failing: ${s.failing.join(', ')}` : ''}`);
  console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
}
