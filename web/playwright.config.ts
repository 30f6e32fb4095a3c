import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '@replicant/engines/chromium';

// REPLICANT_E2E_PORT lets two checkouts run their browser tests side by side on one machine.
const port = Number(process.env.REPLICANT_E2E_PORT ?? 4399);

// Debian's Chromium, started as everywhere in the project (@replicant/engines/chromium).
export default defineConfig({
  testDir: 'e2e',
  // Two workers on a 2-core machine (Playwright's default is half the cores: one), and tests
  // rather than files shared between them: each test has its own page and state, and most of
  // them wait on a page or on a single simulation worker, so one test alone leaves a core idle.
  // The longest tests (a Lab sweep and the Race at their defaults) then run side by side.
  workers: Math.max(2, availableParallelism()),
  fullyParallel: true,
  timeout: 120_000,
  // Assertions wait for the state they name; on a loaded machine that can take far longer than
  // Playwright's 5 s default, and waiting longer costs nothing when the state comes sooner.
  expect: { timeout: 60_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromiumLaunchOptions(),
  },
  webServer: {
    command: `node ../scripts/serve.mjs dist ${port}`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
  },
});
