import { test, expect } from '@playwright/test';

test('three Go wasm engines elect exactly one leader in the browser', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page.locator('td.role', { hasText: /^leader$/ })).toHaveCount(1, { timeout: 20_000 });
  const ballots = await page.locator('tr[data-ballot]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-ballot')));
  expect(new Set(ballots).size).toBe(1); // everyone follows the winner's ballot
  await expect(page.getByTestId('event-log')).toContainText('"kind":"leader"');
  await page.screenshot({ path: testInfo.outputPath('election.png') });
});
