import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, openView, screenshot } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const EXAMPLE = 'cost-model/examples/paper-ratio-8.json';

/** The break-even month the cost model computes natively for the example input. */
function nativeBreakEven(): number | null {
  const out = execFileSync('python3', ['-m', 'replicant_cost', 'estimate', '--input', EXAMPLE], {
    cwd: REPO,
    env: { ...process.env, PYTHONPATH: join(REPO, 'cost-model/src') },
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { break_even: { month: number | null } }).break_even.month;
}

test('the cost page computes the example input in Pyodide and finds the native break-even month', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const expected = nativeBreakEven();
  expect(expected).toBe(49); // the cost-model README's documented figure
  const input = JSON.parse(readFileSync(join(REPO, EXAMPLE), 'utf8'));

  await openView(page, '?view=cost&cost.ops=1000&cost.pct=1', 'cost');
  await expect(page.getByTestId('cost-status')).toContainText('Starting Python');
  // Type the example's inputs into the form.
  const field = (label: string) => page.locator(`[data-knob="cost.${label}"]`).locator('input, select');
  await field('ops').fill(String(input.demand.ops_per_s_now));
  await field('growth').selectOption(input.demand.growth.kind);
  await field('pct').fill(String(input.demand.growth.pct_per_month));
  await field('horizon').fill(String(input.horizon_months));
  await field('wl').selectOption(input.cluster.workload);
  await field('ratio').selectOption(String(input.cluster.memory_to_data_ratio));
  await field('vcpus').selectOption(String(input.cluster.vcpus));
  await field('instance').selectOption(input.cluster.instance_type);
  await field('nodes').selectOption(String(input.cluster.nodes_per_cluster));
  await field('gc').selectOption(input.compare.gc.toLowerCase());
  await field('nongc').selectOption(input.compare.non_gc === 'C++' ? 'cpp' : 'rust');

  await expect(page.getByTestId('cost-status')).toContainText('Pyodide) started', { timeout: 60_000 });
  await expect(page.getByTestId('break-even')).toHaveAttribute('data-month', String(expected), { timeout: 30_000 });
  await expect(page.getByTestId('break-even')).toContainText(`C++ breaks even with Java in month ${expected}`);
  await expect(page.getByTestId('chart-cost-cumulative').getByTestId('vertical-marker')).toContainText(`month ${expected}`);
  await expect(page.getByTestId('sensitivity-table').locator('tbody tr').first()).toContainText('capacity of Java');

  // The URL now holds the inputs: a reload shows the same answer.
  await page.reload();
  await expect(page.getByTestId('break-even')).toHaveAttribute('data-month', String(expected), { timeout: 60_000 });

  // The month-by-month CSV is the model's own.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Month-by-month CSV' }).click()]);
  const csv = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  expect(csv.split(/\r?\n/)[0]).toContain('month');
  await screenshot(page, testInfo, 'cost');
});

test('bad input gets a clear message and loses nothing', async ({ page }) => {
  test.setTimeout(300_000);
  await openView(page, '?view=cost', 'cost');
  await expect(page.getByTestId('break-even')).toHaveAttribute('data-month', /\d+/, { timeout: 180_000 });
  // A field the form cannot read: marked, explained, and the last good value stays in use.
  const team = page.locator('[data-knob="cost.team"] input');
  await team.fill('-5');
  await expect(page.locator('[data-knob="cost.team"]').getByRole('alert')).toHaveText('Team size must be a number from 0 to 10000');
  await expect(page.getByTestId('break-even')).toHaveAttribute('data-month', /\d+/);
  // ...and the results shown are marked stale, naming the field.
  await expect(page.getByTestId('cost-stale')).toContainText('Team size must be');
  await team.fill('2');
  await expect(page.getByTestId('cost-stale')).toHaveCount(0);
  // A configuration the paper does not state: the model says which ones it has.
  await page.locator('[data-knob="cost.vcpus"] select').selectOption('4');
  await expect(page.getByTestId('cost-error')).toContainText('no capacity for C++ at workload A, 32 GiB, 4 vCPUs');
  await page.locator('[data-knob="cost.vcpus"] select').selectOption('8');
  await expect(page.getByTestId('break-even')).toHaveAttribute('data-month', /\d+/, { timeout: 30_000 });
});

test('presets change only what they name; absurd inputs stay readable and never widen the page', async ({ page }) => {
  test.setTimeout(300_000);
  await openView(page, '?view=cost&cost.growth=linear&cost.linear=20000&cost.horizon=120', 'cost');
  await expect(page.getByTestId('break-even')).toHaveAttribute('data-month', /\d+|none/, { timeout: 180_000 });
  await page.getByRole('group', { name: 'Presets' }).getByRole('button', { name: /ratio 1\.25/ }).click();
  await expect(page.locator('[data-knob="cost.ratio"] select')).toHaveValue('1.25');
  await expect(page.locator('[data-knob="cost.growth"] select')).toHaveValue('linear');
  await expect(page.locator('[data-knob="cost.horizon"] input')).toHaveValue('120');
  await expect(page.locator('[data-knob="cost.linear"] input')).toHaveValue('20000');
  // Demand 1e9, 100 % a month for 600 months.
  await openView(page, '?view=cost&cost.ops=1000000000&cost.pct=100&cost.horizon=600', 'cost');
  await expect(page.getByTestId('cost-table')).toBeVisible({ timeout: 180_000 });
  await expect(page.locator('.cost-results')).not.toContainText(/e\d+ M|e\+\d+/);
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
});
