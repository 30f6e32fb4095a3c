import { test, expect } from '@playwright/test';
import { openView, screenshot } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

test('the Lab draws the paper’s published points for its knobs and a small simulated sweep beside them', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await openView(page, '?view=lab&lab.engines=cpp,java&lab.duration=2&lab.ratios=8,1.25', 'lab');
  const chart = page.getByTestId('chart-lab-sweep');
  // Published: C++ and Java at 32 and 5 GiB (Fig 6(a)).
  await expect(chart.locator('g.point[aria-label*="published"]')).toHaveCount(4);
  await chart.locator('g.point[aria-label^="Java · the paper (AWS), 32"]').focus();
  await expect(chart.getByTestId('point-card')).toContainText('§5.2, Fig 6(a)');
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('lab-progress')).toBeVisible();
  await expect(page.getByTestId('lab-progress')).toHaveCount(0, { timeout: 170_000 });
  await expect(page.getByTestId('lab-error')).toHaveCount(0);
  // Two engines × two memory sizes, each point labelled simulated with the model card.
  await expect(chart.locator('g.point[aria-label*="simulated"]')).toHaveCount(4);
  await expect(chart.locator('g.point[aria-label*="simulated"]').first()).toHaveAttribute('aria-label', /Kops\/s \(simulated\)/);
  await expect(chart.locator('.chart-source')).toContainText(/Simulated with model card \d+\.\d+\.\d+, seed 1/);
  await expect(page.getByTestId('chart-lab-probes').locator('g.point').first()).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await chart.locator('g.point[aria-label*="simulated"]').first().hover();
  await screenshot(page, testInfo, 'lab');
});

test('the Race squeezes memory with one key and simulates every lane', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await openView(page, '?view=race&race.rate=5000', 'race');
  await expect(page.locator('.race-head h1')).toContainText('32 GiB');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.race-head h1')).toContainText('8 GiB');
  await expect(page).toHaveURL(/race\.step=1/);
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  await expect(page.locator('.race-head h1')).toContainText('5 GiB');
  await expect(page.getByTestId('published-java')).toContainText('3 Kops/s');
  const lanes = page.getByTestId('race-board').locator('section.lane');
  await expect(lanes).toHaveCount(4);
  await expect(lanes.locator('[data-state="done"]')).toHaveCount(4, { timeout: 170_000 });
  await expect(lanes.first()).toContainText('simulated');
  await expect(page.getByTestId('race-sentence')).toContainText('At 5 GiB and 5,000 ops/s offered');
  await screenshot(page, testInfo, 'race');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('.race-head h1')).toContainText('6 GiB');
});
