import { defineConfig } from '@playwright/test';

// scripts/e2e.sh starts a real server (throwaway data dir, demo accounts, test worlds)
// and sets SITECAST_E2E_URL; this config never starts one itself.
//
// Every test makes its own world (e2e/world.ts), so tests run side by side. The few that
// change an installation-wide setting are tagged @installation and run after all the
// others, one at a time, with nothing beside them.
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
  // Two on the two-core CI machine (the server and Chromium share it); locally, four.
  workers: process.env.CI ? 2 : 4,
  reporter: [['list']],
  projects: [
    { name: 'worlds', grepInvert: /@installation/ },
    { name: 'installation', grep: /@installation/, dependencies: ['worlds'], workers: 1 },
  ],
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
