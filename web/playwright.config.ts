import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '@replicant/engines/chromium';

/** The port the lab is served on for these tests: REPLICANT_E2E_PORT if set, else one that is
 * free now. A fixed default failed a whole run when a server from an earlier run still held it.
 * The runner writes its choice into the environment, which its worker processes inherit, so
 * every process of one run reads the same port. */
function e2ePort(): number {
  const given = process.env.REPLICANT_E2E_PORT;
  if (given !== undefined && given !== '') {
    const port = Number(given);
    if (!/^[0-9]+$/.test(given) || port < 1 || port > 65535) throw new Error(`REPLICANT_E2E_PORT must be a port number from 1 to 65535, got ${JSON.stringify(given)}`);
    return port;
  }
  const chosen = execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/free-port.mjs', import.meta.url))]).toString().trim();
  process.env.REPLICANT_E2E_PORT = chosen;
  return Number(chosen);
}
const port = e2ePort();

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
