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

test('an invalid Lab field blocks the run and names the field; the old value is never used', async ({ page }) => {
  await openView(page, '?view=lab&lab.engines=go&lab.ratios=8', 'lab');
  const ratios = page.locator('[data-knob="lab.ratios"] input');
  await ratios.fill('banana');
  await expect(page.getByTestId('lab-invalid')).toContainText('Ratios to sweep');
  await expect(page.getByTestId('run-sweep')).toBeDisabled();
  await expect(page.getByTestId('run-once')).toBeDisabled();
  await page.keyboard.press('r'); // the shortcut is blocked too (focus is in the field: blur first)
  await page.locator('h1').click();
  await page.keyboard.press('r');
  await expect(page.getByTestId('lab-progress')).toHaveCount(0);
  await ratios.fill('8, 1.25');
  await expect(page.getByTestId('lab-invalid')).toHaveCount(0);
  await expect(page.getByTestId('run-sweep')).toBeEnabled();
});

test('Lab results belong to the settings that made them and stay across views', async ({ page }) => {
  test.setTimeout(240_000);
  const nanErrors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && /NaN/.test(m.text()) && nanErrors.push(m.text()));
  await openView(page, '?view=lab&lab.engines=go&lab.duration=1&lab.ratios=8', 'lab');
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('lab-progress')).toBeVisible();
  await expect(page.getByTestId('lab-progress')).toHaveCount(0, { timeout: 200_000 });
  const chart = page.getByTestId('chart-lab-sweep');
  await expect(chart.locator('g.point[aria-label*="simulated"]')).toHaveCount(1);
  // Another axis: the old points are not drawn on it, and a notice says whose they are.
  await page.locator('[data-knob="lab.sweep"] select').selectOption('vcpus');
  await expect(chart).toContainText('vs vCPUs');
  await expect(chart.locator('g.point[aria-label*="simulated"]')).toHaveCount(0);
  await expect(page.getByTestId('lab-stale')).toContainText('ratios 8');
  // Back to its settings: drawn again.
  await page.getByTestId('lab-restore-sweep').click();
  await expect(chart.locator('g.point[aria-label*="simulated"]')).toHaveCount(1);
  // Lab → Cost → Lab keeps the sweep.
  await page.getByRole('navigation', { name: 'Views' }).getByText('Cost').click();
  await expect(page.locator('html[data-ready="cost"]')).toHaveCount(1);
  await page.getByRole('navigation', { name: 'Views' }).getByText('Lab').click();
  await expect(page.locator('html[data-ready="lab"]')).toHaveCount(1);
  await expect(page.getByTestId('chart-lab-sweep').locator('g.point[aria-label*="simulated"]')).toHaveCount(1);
  // An invalid field marks the shown results stale.
  await page.locator('[data-knob="lab.ratios"] input').fill('banana');
  await expect(page.getByTestId('chart-lab-sweep').locator('g.point[aria-label*="simulated"]')).toHaveCount(0);
  await expect(page.getByTestId('lab-stale')).toContainText('A field cannot be read');
  expect(nanErrors).toEqual([]);
});

test('the Race keeps its layout still while the next step simulates, and never blanks a lane', async ({ page }) => {
  test.setTimeout(300_000);
  await openView(page, '?view=race&race.rate=5000', 'race');
  const lanes = page.getByTestId('race-board').locator('section.lane');
  await expect(lanes.locator('[data-state="done"]')).toHaveCount(4, { timeout: 170_000 });
  // From here on, every animation frame records the lanes' and the board's heights, and whether a lane blanked.
  await page.evaluate(() => {
    const w = window as unknown as { raceLayouts: Set<string>; raceBlank: number; raceStop: boolean };
    w.raceLayouts = new Set();
    w.raceBlank = 0;
    w.raceStop = false;
    const board = document.querySelector('[data-testid="race-board"]')!;
    const record = () => {
      const ls = [...board.querySelectorAll('section.lane')];
      w.raceLayouts.add(`${ls.map((l) => Math.round(l.getBoundingClientRect().height)).join(',')} | ${Math.round(board.getBoundingClientRect().height)}`);
      if (/waiting/.test(board.textContent ?? '') || ls.some((l) => l.querySelector('.big') === null)) w.raceBlank++;
      if (!w.raceStop) requestAnimationFrame(record);
    };
    record();
  });
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.race-head h1')).toContainText('8 GiB');
  await expect(lanes.locator('[data-state="previous"]').first()).toBeVisible();
  await expect(lanes.first()).toContainText('showing 32 GiB');
  await expect(lanes.locator('[data-state="done"]')).toHaveCount(4, { timeout: 170_000 });
  const { layouts, blank } = await page.evaluate(() => {
    const w = window as unknown as { raceLayouts: Set<string>; raceBlank: number; raceStop: boolean };
    w.raceStop = true;
    return { layouts: [...w.raceLayouts], blank: w.raceBlank };
  });
  expect(blank).toBe(0);
  expect(layouts).toHaveLength(1);
});
