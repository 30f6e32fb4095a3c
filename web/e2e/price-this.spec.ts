import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, openView } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const capacity = (page: Page, engine: string) => page.locator(`[data-knob="cost.cap${engine}"] input`);
const field = (page: Page, key: string) => page.locator(`[data-knob="cost.${key}"]`).locator('input, select');

test('a Lab sweep point opens the Cost view with its simulated capacity per language, in ops/s, and says so', async ({ page }) => {
  test.setTimeout(600_000);
  // The Cost view starts at 5 GiB: pricing the 32 GiB point must move it.
  await openView(page, '?view=lab&lab.engines=cpp,go&lab.duration=2&lab.ratios=8&cost.ratio=1.25', 'lab');
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('lab-progress')).toBeVisible();
  await expect(page.getByTestId('lab-progress')).toHaveCount(0, { timeout: 580_000 });
  await expect(page.getByTestId('lab-error')).toHaveCount(0);
  const simulated = async (engine: string) => {
    const text = await page.getByTestId(`fidelity-${engine}-32`).locator('td').nth(2).textContent();
    return Number(/([\d.]+) \(simulated\)/.exec(text ?? '')![1]);
  };
  const cpp = await simulated('cpp');
  const go = await simulated('go');
  await page.getByTestId('price-lab-0').click();
  await expect(page.locator('html[data-ready="cost"]')).toHaveCount(1);
  await expect(page).toHaveURL(/view=cost/);
  await expect(field(page, 'ratio')).toHaveValue('8');
  // Kops/s in the Lab, ops/s per cluster in the Cost view (the Lab shows 3 significant figures).
  for (const [engine, kops] of [['cpp', cpp], ['go', go]] as const) {
    const ops = Number(await capacity(page, engine).inputValue());
    expect(Math.abs(ops / 1000 - kops)).toBeLessThanOrEqual(kops * 0.005 + 0.01);
    await expect(page.getByTestId(`capacity-source-${engine}`)).toContainText(/simulated with model card \d+\.\d+\.\d+/);
  }
  await expect(capacity(page, 'java')).toHaveValue('');
  await expect(page.getByTestId('capacity-source-java')).toHaveText('Java: the paper’s measured value');
  await expect(page).toHaveURL(/cost\.srccpp=sim%3A\d/);
  // The model prices with it: the table's source column says where the capacity came from.
  await expect(page.getByTestId('cost-table').locator('tr', { hasText: 'C++' })).toContainText('simulated with model card', { timeout: 120_000 });
  // Typing a capacity by hand drops the result's source.
  await capacity(page, 'cpp').fill('12345');
  await expect(page.getByTestId('capacity-source-cpp')).toHaveText('C++: typed in by hand');
  await expect(page).not.toHaveURL(/cost\.srccpp=/);
});

test('a Race lane opens the Cost view with the finished lanes’ capacities at that memory', async ({ page }) => {
  test.setTimeout(900_000);
  // Step 0: 32 GiB, ample memory; C++ and Go are the quickest lanes.
  await openView(page, '?view=race&race.wl=B&cost.ratio=1.25', 'race');
  for (const e of ['cpp', 'go']) await expect(page.getByTestId(`price-race-${e}`)).toBeEnabled({ timeout: 800_000 }); // enabled once the lane's search is done
  const kopsOf = async (engine: string) => {
    const label = await page.getByTestId(`lane-${engine}`).locator('.throughput-bar').getAttribute('aria-label');
    return Number(/max throughput ([\d.]+) Kops\/s/.exec(label ?? '')![1]);
  };
  const cpp = await kopsOf('cpp');
  const go = await kopsOf('go');
  await page.getByTestId('price-race-go').click();
  await expect(page.locator('html[data-ready="cost"]')).toHaveCount(1);
  await expect(field(page, 'ratio')).toHaveValue('8');
  await expect(field(page, 'wl')).toHaveValue('B');
  for (const [engine, kops] of [['cpp', cpp], ['go', go]] as const) {
    const ops = Number(await capacity(page, engine).inputValue());
    expect(Math.abs(ops / 1000 - kops)).toBeLessThanOrEqual(kops * 0.005 + 0.001);
    await expect(page.getByTestId(`capacity-source-${engine}`)).toContainText('simulated with model card');
  }
});

test('a native results file in the Paper view’s overlay opens the Cost view with its measured capacities, date and machine', async ({ page }) => {
  const file = JSON.parse(readFileSync(join(REPO, 'data/native/2026-11-22-scaled/workload-b-r2-r1p5/results.json'), 'utf8'));
  const measured = (language: string) =>
    file.rows.find((r: { metric: string; language: string; memory_data_ratio: number }) => r.metric === 'max_throughput_slo' && r.language === language && r.memory_data_ratio === 2).value as number;
  await openView(page, '?view=paper&paper.fig=fig9&paper.overlays=1', 'paper');
  const entry = page.getByTestId('overlay-conditions').locator('li', { hasText: 'workload-b-r2-r1p5/results.json' });
  await entry.getByTestId('price-native-B-2-8').click();
  await expect(page.locator('html[data-ready="cost"]')).toHaveCount(1);
  await expect(field(page, 'wl')).toHaveValue('B');
  await expect(field(page, 'ratio')).toHaveValue('2');
  await expect(capacity(page, 'cpp')).toHaveValue(String(Math.round(measured('C++') * 1000)));
  await expect(capacity(page, 'java')).toHaveValue(String(Math.round(measured('Java') * 1000)));
  await expect(page.getByTestId('capacity-source-cpp')).toHaveText(`C++: native run of ${file.metadata.date} on ${file.metadata.machine.description}`);
});

test('an unreadable capacity source in the address is refused with a sentence, never used', async ({ page }) => {
  await openView(page, '?view=cost&cost.capcpp=5000&cost.srccpp=banana', 'cost');
  await expect(page.getByRole('alert').filter({ hasText: 'cost.srccpp=banana' })).toContainText('must be empty, sim:<model card version> or native:<YYYY-MM-DD>:<machine>');
  await expect(page.getByTestId('capacity-source-cpp')).toHaveText('C++: typed in by hand');
});
