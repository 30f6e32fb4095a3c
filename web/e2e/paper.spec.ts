import { test, expect } from '@playwright/test';
import { openView, screenshot } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

test('the paper explorer draws Fig 6 from data, with quotes on focus and missing points marked', async ({ page }, testInfo) => {
  await openView(page, '?view=paper&paper.fig=fig6', 'paper');
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
