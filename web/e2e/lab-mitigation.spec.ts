import { test, expect } from '@playwright/test';
import { openView, screenshot } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 900 } });

// A small Java cluster whose heap is close to its live set, so young pauses show in the tail.
const SMALL = 'lab.engines=java,rust&lab.memunit=ratio&lab.ratio=2.2&lab.records=100000&lab.rate=1500&lab.threads=4&lab.vcpus=2&lab.duration=1';

test('the mitigation knob runs BLADE against GC on and GC off, in Table 7’s layout, and Rust says there is nothing to mitigate', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await openView(page, `?view=lab&${SMALL}&lab.mit=blade`, 'lab');
  await expect(page.locator('[data-knob="lab.mit"] select')).toHaveValue('blade');
  await page.getByTestId('run-once').click();
  const panel = page.getByTestId('lab-mitigation');
  await expect(panel).toBeVisible({ timeout: 240_000 });
  const chart = page.getByTestId('chart-lab-mitigation-chart');
  // Java: BLADE, GC off, GC on at three percentiles; Rust runs once.
  await expect(chart.locator('g.point')).toHaveCount(9);
  await expect(chart.locator('.chart-sentence')).toContainText('at most a minority collects at once');
  await expect(chart.locator('.chart-sentence')).toContainText('nothing to mitigate');
  await expect(chart.locator('.chart-sentence')).toContainText(/\d+ leadership handoffs?/);
  await expect(chart.locator('.chart-source')).toContainText('Simulated, model card');
  // The table: BLADE · GC off · GC on at p99.9, GC off the lowest; BLADE's own Table 7 under it.
  // (With these short young pauses a handoff's replay costs more than the pause it avoids:
  // mitigation model 1.1.0, docs/mitigation.md.)
  const row = page.getByTestId('mitigation-java-p99.9');
  await expect(row).toContainText('Java · simulated');
  const cells = (await row.locator('td.num').allTextContents()).map(Number);
  expect(cells.every((c) => c > 0)).toBe(true);
  expect(cells[1]).toBeLessThan(cells[2]!);
  expect(cells[1]).toBeLessThan(cells[0]!);
  await expect(page.getByTestId('mitigation-paper-p99.9')).toContainText('0.62');
  await expect(page.getByTestId('mitigation-paper-p99.9')).toContainText('28.81');
  await screenshot(page, testInfo, 'lab-mitigation', false);
});

test('MITMEM alone says honestly that one leader limits it; BLADE with exact fidelity runs the engines\' own extension', async ({ page }) => {
  test.setTimeout(300_000);
  await openView(page, `?view=lab&${SMALL.replace('java,rust', 'java')}&lab.mit=mitmem`, 'lab');
  await page.getByTestId('run-once').click();
  const sentence = page.getByTestId('chart-lab-mitigation-chart').locator('.chart-sentence');
  await expect(sentence).toContainText('only helps where another replica can answer', { timeout: 240_000 });
  await expect(sentence).toContainText(/\d+ busy repl(y|ies), 0 answered by another replica/);
  await openView(page, `?view=lab&${SMALL.replace('java,rust', 'java')}&lab.mit=blade&lab.fid=exact`, 'lab');
  await page.getByTestId('run-once').click();
  // exact mode drives the cores' gc_pending / collect / gc_done (it used to be refused)
  await expect(page.getByTestId('chart-lab-mitigation-chart').locator('.chart-sentence')).toBeVisible({ timeout: 240_000 });
  await expect(page.getByTestId('lab-error')).toHaveCount(0);
});

test('a sweep with BLADE runs Go and Java again and says how far it moves the memory cliff; Rust is swept once', async ({ page }) => {
  test.setTimeout(900_000);
  await openView(page, `?view=lab&${SMALL}&lab.ratios=8,2.2&lab.mit=blade`, 'lab');
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('lab-progress')).toBeVisible();
  await expect(page.getByTestId('lab-progress')).toHaveCount(0, { timeout: 880_000 });
  await expect(page.getByTestId('lab-error')).toHaveCount(0);
  const chart = page.getByTestId('chart-lab-sweep');
  // Java and Rust without, Java with BLADE: three series of two points.
  await expect(chart.locator('g.point[aria-label*="simulated"]')).toHaveCount(6);
  await expect(chart.locator('g.point[aria-label^="Java + BLADE"]')).toHaveCount(2);
  const sentence = page.getByTestId('lab-sweep-mitigation');
  await expect(sentence).toContainText(/Simulated: Java at 8\.8 GiB: .* without, .* with BLADE; the SLO is met at \d of 2 points without and \d with/);
  await expect(sentence).toContainText('C++ and Rust have no collector');
  await expect(sentence).toContainText(/Mitigation model \d+\.\d+\.\d+, model card \d+\.\d+\.\d+/);
});

test('an invalid mitigation in the URL is named and falls back to the default, never to an old value', async ({ page }) => {
  await openView(page, `?view=lab&${SMALL}&lab.mit=blade`, 'lab');
  await expect(page.locator('[data-knob="lab.mit"] select')).toHaveValue('blade');
  await openView(page, `?view=lab&${SMALL}&lab.mit=sometimes`, 'lab');
  const alert = page.getByRole('alert').filter({ hasText: 'could not be used' });
  await expect(alert).toContainText('“lab.mit=sometimes” was ignored: GC mitigation must be one of none, blade, mitmem, both');
  await expect(page.locator('[data-knob="lab.mit"] select')).toHaveValue('none');
});
