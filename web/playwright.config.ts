import { defineConfig } from '@playwright/test';

// The lead's test script starts a real server (throwaway data dir, demo accounts) and
// sets SITECAST_E2E_URL; this config never starts one itself.
const baseURL = process.env.SITECAST_E2E_URL ?? 'http://127.0.0.1:8099';

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 7_500 },
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // No retries: a test that passes only on a second try is a flaky test to fix.
  retries: 0,
  // CI runs the browser tests one at a time: two workers on a two-core machine shared with
  // the server and Chromium made every run a lottery of timing (a photo another test
  // uploaded arriving live mid-test, a caret moved under load). Locally, four.
  workers: process.env.CI ? 1 : 4,
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium: Playwright's own browser downloads are not available here.
      executablePath: process.env.SITECAST_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
      ],
    },
  },
});
