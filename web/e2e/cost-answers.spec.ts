// The Cost view answers the architect: tight vs ample memory per language, the instance type ×
// memory per node trade-off with $/vCPU and $/GiB, priced capacities that go stale visibly, and
// tight vs ample one click from a Lab memory sweep. A single Lab run says why it is not priced.
import { test, expect, type Page } from '@playwright/test';
import { openView } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const field = (page: Page, key: string) => page.locator(`[data-knob="cost.${key}"]`).locator('input, select');
// Pyodide's first start on a loaded machine.
const PYODIDE = { timeout: 180_000 };

test('tight vs ample memory side by side per language, from the paper’s capacities with their sources', async ({ page }) => {
  test.setTimeout(300_000);
  await openView(page, '?view=cost', 'cost');
  await expect(page.getByTestId('tight-vs-ample-java')).toHaveText('At ratio 1.25 Java needs 165 more instances than at ratio 8: +$555.0 k a year.', PYODIDE);
  await expect(page.getByTestId('tight-vs-ample-cpp')).toContainText('needs as many instances');
  await expect(page.getByTestId('tight-vs-ample-go')).toContainText('Go cannot meet the SLO at ratio 1.25');
  await expect(page.getByTestId('tight-vs-ample-from-java')).toHaveText('ratio 8: the paper (fig6a, fig7a, table1); ratio 1.25: the paper (fig6a)');
  await expect(page.getByTestId('tight-vs-ample-from-java')).toHaveAttribute('title', /fig6a-java-a-5gib-8vcpu-max-throughput-slo/);
  // Another ratio to compare with: the paper has no Java capacity at 6 GiB, and says so.
  await field(page, 'vs').selectOption('1.5');
  await expect(page.getByTestId('tight-vs-ample-java')).toHaveText('Java has no known capacity at ratio 1.5, so the two cannot be compared.');
  await expect(page.getByTestId('tight-vs-ample-cpp')).toContainText('At ratio 1.5 C++ needs as many instances');
});

test('each catalogue instance with $/vCPU-h and $/GiB-h, its price source and date, and the trade-off per language', async ({ page }) => {
  test.setTimeout(300_000);
  await openView(page, '?view=cost', 'cost');
  await expect(page.getByTestId('usd-per-vcpu-m5.2xlarge')).toHaveText('$0.048', PYODIDE);
  await expect(page.getByTestId('usd-per-gib-m5.2xlarge')).toHaveText('$0.012');
  for (const name of ['m5.large', 'm5.xlarge', 'm5.2xlarge', 'm5.4xlarge', 'm5.metal']) {
    await expect(page.getByTestId(`price-source-${name}`)).toContainText('data/prices/ec2-prices-us-east-1.csv, retrieved 2026-11-22');
  }
  await expect(page.getByTestId('instance-m5.2xlarge')).toContainText('18,000 ops/s per cluster → 36 instances');
  await expect(page.getByTestId('instance-m5.large')).toContainText('no capacity known at 2 vCPUs, 8 GiB');
  // A capacity for 2 vCPUs and 8 GiB (ratio 2) is an m5.large used whole: now there is a trade-off.
  await field(page, 'vcpus').selectOption('2');
  await field(page, 'ratio').selectOption('2');
  await field(page, 'capjava').fill('5000');
  await field(page, 'capcpp').fill('9000');
  await expect(page.getByTestId('tradeoff-java')).toHaveText('Java: cheapest is m5.large (120 instances, $100.9 k a year), against m5.2xlarge $121.1 k.');
});

test('priced capacities are flagged and left out once the setting moves away from theirs, and come back with it', async ({ page }) => {
  test.setTimeout(300_000);
  await openView(page, '?view=cost&cost.capjava=7000&cost.srcjava=sim%3A0.9.1&cost.at=A%2F8%2F8', 'cost');
  const javaRow = page.getByTestId('cost-table').locator('tr', { hasText: 'Java' });
  await expect(javaRow).toContainText('7,000', PYODIDE);
  await expect(javaRow).toContainText('simulated with model card 0.9.1');
  await expect(page.getByTestId('priced-stale')).toHaveCount(0);
  await field(page, 'ratio').selectOption('1.25');
  await expect(page.getByTestId('priced-stale')).toContainText('were measured at workload A, ratio 8, 8 vCPUs; the form now asks for workload A, ratio 1.25, 8 vCPUs (ratio changed)');
  await expect(page.getByTestId('capacity-source-java')).toContainText('not this setting, not used');
  // The model prices with the paper's 3,000 at ratio 1.25, not the old 7,000.
  await expect(javaRow).toContainText('3,000');
  await expect(javaRow).not.toContainText('7,000');
  await field(page, 'vcpus').selectOption('4');
  await expect(page.getByTestId('priced-stale')).toContainText('(ratio, vCPUs changed)');
  await page.getByTestId('priced-stale').getByRole('button', { name: 'Back to workload A, ratio 8, 8 vCPUs' }).click();
  await expect(page.getByTestId('priced-stale')).toHaveCount(0);
  await expect(javaRow).toContainText('7,000');
});

test('tight vs ample is one click from a Lab memory sweep: both ends’ simulated capacities side by side', async ({ page }) => {
  test.setTimeout(900_000);
  await openView(page, '?view=lab&lab.engines=cpp,java&lab.duration=2&lab.ratios=8,1.25', 'lab');
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('lab-progress')).toBeVisible();
  await expect(page.getByTestId('lab-progress')).toHaveCount(0, { timeout: 850_000 });
  await expect(page.getByTestId('lab-error')).toHaveCount(0);
  await expect(page.getByTestId('price-lab-tight-vs-ample')).toBeEnabled();
  await page.getByTestId('price-lab-tight-vs-ample').click();
  await expect(page.locator('html[data-ready="cost"]')).toHaveCount(1);
  await expect(field(page, 'ratio')).toHaveValue('8');
  await expect(field(page, 'vs')).toHaveValue('1.25');
  await expect(page).toHaveURL(/cost\.vsat=A%2F1\.25%2F8/);
  for (const e of ['cpp', 'java']) {
    await expect(page.getByTestId(`capacity-source-${e}`)).toContainText('simulated with model card');
    await expect(page.getByTestId(`vs-capacity-source-${e}`)).toContainText('simulated with model card');
  }
  const javaRow = page.getByTestId('tight-vs-ample-table').locator('tr', { hasText: 'Java' });
  await expect(javaRow).toContainText('ratio 8: simulated with model card', PYODIDE);
  await expect(javaRow).toContainText('ratio 1.25: simulated with model card');
  await expect(page.getByTestId('tight-vs-ample-java')).toContainText(/At ratio 1\.25 Java|Java cannot meet the SLO at ratio 1\.25/);
});

test('a single Lab run says why it is not priced, per engine', async ({ page }) => {
  test.setTimeout(600_000);
  await openView(page, '?view=lab&lab.engines=cpp&lab.duration=2&lab.rate=5000', 'lab');
  await page.getByTestId('run-once').click();
  await expect(page.getByTestId('lab-run-not-priced')).toContainText('Not priced in the Cost view: these runs measured one offered rate', { timeout: 580_000 });
  await expect(page.getByTestId('lab-run-not-priced')).toContainText(/C\+\+ (met|missed) the SLO at 5,000 ops\/s \(p99 [\d.]+ ms [≤>] 20 ms\)/);
});
