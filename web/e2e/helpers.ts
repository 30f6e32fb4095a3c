// Shared steps of the browser tests.
import { expect, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Opens a URL of the lab and waits until the view says it is interactive. */
export async function openView(page: Page, query: string, view: string, timeout = 20_000): Promise<void> {
  await page.goto(`/${query}`);
  await expect(page.locator(`html[data-ready="${view}"]`)).toHaveCount(1, { timeout });
}

/**
 * Saves a screenshot as a test artifact; with REPLICANT_UPDATE_SCREENSHOTS=1 also as
 * docs/screenshots/<name>.png, the README's pictures (committed, so not rewritten on every run).
 */
export async function screenshot(page: Page, testInfo: TestInfo, name: string, toDocs = true): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  if (toDocs && process.env.REPLICANT_UPDATE_SCREENSHOTS === '1') {
    const file = resolve(REPO, 'docs/screenshots', `${name}.png`);
    mkdirSync(dirname(file), { recursive: true });
    await page.screenshot({ path: file });
  }
}
