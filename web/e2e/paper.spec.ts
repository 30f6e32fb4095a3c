import { test, expect } from '@playwright/test';
import { openView, screenshot } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

test('the paper explorer draws Fig 6 from data, with quotes on focus and missing points marked', async ({ page }, testInfo) => {
  // The paper's own points only: results overlays are switched off in the address.
  await openView(page, '?view=paper&paper.fig=fig6&paper.overlays=0', 'paper');
  const fig6a = page.getByTestId('chart-fig6a');
  await expect(fig6a.locator('h3')).toHaveText('Fig 6(a): max throughput at the SLO vs memory, workload A');
  // C++ at 4 memory sizes, Java at 32 and 5 GiB, Java at 8 and 6 GiB not stated.
  await expect(fig6a.locator('g.point')).toHaveCount(8);
  await expect(fig6a.locator('g.point[aria-label*="not stated"]')).toHaveCount(2);
  await expect(fig6a.locator('.chart-sentence')).toContainText('Java reaches 18 Kops/s with 32 GiB but only 3 Kops/s with 5 GiB');

  // Keyboard: focus the Java 32 GiB point; its card shows the quote and the section.
  await fig6a.locator('g.point[aria-label^="Java, 32"]').focus();
  const card = fig6a.getByTestId('point-card');
  await expect(card).toContainText('Java · 32 GiB: 18 Kops/s');
  await expect(card).toContainText('§5.2, Fig 6(a)');
  await expect(card.locator('blockquote')).not.toBeEmpty();

  // Downloads: the CSV of the chart carries each point's status and source.
  const [download] = await Promise.all([page.waitForEvent('download'), fig6a.getByRole('button', { name: 'CSV' }).click()]);
  const csv = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString('utf8');
  expect(text.split('\r\n')[0]).toBe('series,kind,x,y,status,source_id,where');
  expect(text).toContain('Java,paper,8,,missing,fig6a-java-a-8gib-8vcpu-max-throughput-slo');
  const [svg] = await Promise.all([page.waitForEvent('download'), fig6a.getByRole('button', { name: 'SVG' }).click()]);
  expect(svg.suggestedFilename()).toBe('fig-6-a-max-throughput-at-the-slo-vs-memory-workload-a.svg');
  const [png] = await Promise.all([page.waitForEvent('download'), fig6a.getByRole('button', { name: 'PNG' }).click()]);
  expect(png.suggestedFilename()).toMatch(/\.png$/);
  await page.evaluate(() => window.scrollTo(0, document.getElementById('fig6')!.offsetTop - 56));
  await fig6a.locator('g.point[aria-label^="Java, 32"]').hover();
  await screenshot(page, testInfo, 'paper');
});

test('the native overlay is off by default; switched on, its legend names the machine and says it is not the paper’s set-up', async ({ page }) => {
  await openView(page, '?view=paper&paper.fig=fig6', 'paper');
  const fig6a = page.getByTestId('chart-fig6a');
  await expect(fig6a.locator('g.point[aria-label*="native"]')).toHaveCount(0);
  await expect(page.getByTestId('overlay-conditions')).toHaveCount(0);
  await page.getByTestId('overlay-status').getByRole('checkbox').check();
  await expect(fig6a.locator('g.point[aria-label*="native"]').first()).toBeVisible();
  const legend = page.getByTestId('overlay-conditions');
  await expect(legend).toContainText('2-core AMD EPYC shared with other developers');
  await expect(legend).toContainText('Not the paper’s set-up');
  await expect(page).toHaveURL(/paper\.overlays=1/);
});

test('the committed native reference run stands beside the paper at the same memory:data ratio', async ({ page }) => {
  await openView(page, '?view=paper&paper.fig=fig6&paper.overlays=1', 'paper');
  await expect(page.getByTestId('overlay-status')).toContainText('data/native/2026-11-22-scaled/workload-a/results.json (native, 2026-11-22)');
  const fig6a = page.getByTestId('chart-fig6a');
  // data/native has C++ and Java at ratios 8, 2, 1.5 and 1.25: drawn at 32, 8, 6 and 5 GiB.
  for (const lang of ['C++', 'Java']) {
    await expect(fig6a.locator(`g.point[aria-label^="${lang} · native, 2026-11-22, "]`)).toHaveCount(4);
  }
  await fig6a.locator('g.point[aria-label^="Java · native, 2026-11-22, 32"]').focus();
  const card = fig6a.getByTestId('point-card');
  await expect(card).toContainText('(native)');
  await expect(card).toContainText('Scaled run: memory:data ratio 8');
  await expect(card).toContainText('drawn at the paper’s 32 GiB');
});

test('every figure of the paper with numbers is drawn, and a panel with none says so', async ({ page }) => {
  await openView(page, '?view=paper', 'paper');
  for (const key of ['fig3', 'fig4', 'fig5', 'fig6', 'fig7', 'fig8', 'fig9', 'fig10', 'fig11', 'fig12', 'fig13', 'table1']) {
    await expect(page.getByTestId(`figure-${key}`)).toHaveCount(1);
  }
  await expect(page.getByTestId('chart-fig11b')).toHaveAttribute('data-empty', 'true');
  await expect(page.getByTestId('table1').locator('tbody tr')).toHaveCount(4);
  // The full table of stated numbers filters as you type.
  await page.getByLabel(/Filter/).fill('java 5 gib');
  await expect(page.getByRole('status').filter({ hasText: /of \d+ rows/ })).toContainText(/^\d+ of \d+ rows$/);
});
