import { test, expect } from '@playwright/test';
import { openView, screenshot } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 900 } });

test('BLADE’s Table 7 is drawn from data/mitigations with the table row behind each point', async ({ page }, testInfo) => {
  await openView(page, '?view=paper&paper.fig=blade', 'paper');
  const chart = page.getByTestId('chart-blade-table7');
  await expect(chart.locator('h3')).toHaveText('BLADE Table 7: etcd request latency by percentile, BLADE vs GC off vs GC on');
  // 3 set-ups × 6 percentiles, all stated.
  await expect(chart.locator('g.point')).toHaveCount(18);
  await expect(chart.locator('.chart-sentence')).toContainText('at the 99.9th, GC-on etcd takes 28.81 ms while BLADE stays at 0.62 ms');
  await chart.locator('g.point[aria-label^="GC-On, 99.9th"]').focus();
  const card = chart.getByTestId('point-card');
  await expect(card).toContainText('GC-On, 99.9th percentile: 28.81 ms');
  await expect(card).toContainText('§5.2, Table 7');
  await expect(card.locator('blockquote')).toContainText('99.9th 0.62 0.67 28.81');
  // The table in BLADE's layout, and Table 6 beside it.
  const t7 = page.getByTestId('blade-table7');
  await expect(t7.locator('thead th')).toHaveText(['Percentile', 'BLADE', 'GC-Off', 'GC-On']);
  await expect(t7.locator('tbody tr').nth(2)).toHaveText(/99\.9th\s*0\.62\s*0\.67\s*28\.81/);
  await expect(page.getByTestId('blade-table6').locator('tbody tr').nth(2)).toContainText('95.969');
  // The set-up numbers carry their quotes.
  await expect(page.getByTestId('figure-blade').locator('li[data-row-id="sec5-etcd-network-rtt"]')).toContainText('48 µs');
  // The CSV download names each point's source row.
  const [download] = await Promise.all([page.waitForEvent('download'), chart.getByRole('button', { name: 'CSV' }).click()]);
  const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  expect(text).toContain('GC-On,paper,99.9th,28.81,stated,table7-etcd-gc-on-latency-p99-9');
  await screenshot(page, testInfo, 'paper-blade', false);
});

test('MITMEM’s stated tail shares are drawn as stated, “< 1 %” as an upper bound, and both figures are in “all”', async ({ page }) => {
  await openView(page, '?view=paper&paper.fig=mitmem', 'paper');
  await expect(page.getByTestId('figure-blade')).toHaveCount(0);
  const chart = page.getByTestId('chart-mitmem-fig6');
  await expect(chart.locator('g.point')).toHaveCount(3);
  await chart.locator('g.point[aria-label^="share of requests in the long tail, MITMEM"]').focus();
  await expect(chart.getByTestId('point-card')).toContainText('MITMEM: under 1 % of requests in the long tail');
  await expect(chart.locator('.chart-sentence')).toContainText('±4 ms in about 8 % of predictions');
  await expect(page.getByTestId('figure-mitmem').locator('li[data-row-id="sec4-1-cassandra-retry-overhead"]')).toContainText('120 µs');
  // The picker switches to "all", which shows the paper's figures and both mitigation figures.
  await page.getByRole('group', { name: 'Show figure' }).getByRole('button', { name: 'all' }).click();
  await expect(page).toHaveURL(/paper\.fig=all|view=paper(?!.*paper\.fig)/);
  await expect(page.getByTestId('figure-blade')).toBeVisible();
  await expect(page.getByTestId('figure-mitmem')).toBeVisible();
  await expect(page.getByTestId('figure-fig6')).toBeVisible();
});
