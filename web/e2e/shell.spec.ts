import { test, expect } from '@playwright/test';
import { openView, screenshot } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

test('the URL holds the state: a copied address reopens the same screen', async ({ page, context }) => {
  await openView(page, '?view=paper', 'paper');
  await page.getByRole('button', { name: 'Fig 9' }).click();
  await expect(page).toHaveURL(/paper\.fig=fig9/);
  await page.getByRole('link', { name: 'Cost' }).click();
  await expect(page).toHaveURL(/view=cost/);
  await page.locator('[data-knob="cost.team"] input').fill('7');
  await expect(page).toHaveURL(/cost\.team=7/);
  const url = page.url();

  const other = await context.newPage();
  await other.goto(url);
  await expect(other.locator('html[data-ready="cost"]')).toHaveCount(1);
  await expect(other.locator('[data-knob="cost.team"] input')).toHaveValue('7');
  await other.getByRole('link', { name: 'Paper' }).click();
  await expect(other.getByTestId('figure-fig9')).toHaveCount(1);
  await expect(other.getByTestId('figure-fig6')).toHaveCount(0);
  // Back returns to the cost view.
  await other.goBack();
  await expect(other.locator('html[data-ready="cost"]')).toHaveCount(1);
});

test('a malformed address shows what was ignored and falls back to defaults', async ({ page }) => {
  await openView(page, '?view=paper&paper.fig=fig99&seed=-3&zoom=2', 'paper');
  const alert = page.getByRole('alert').filter({ hasText: 'could not be used' });
  await expect(alert).toContainText('“paper.fig=fig99” was ignored');
  await expect(alert).toContainText('“seed=-3” was ignored: Seed must be a whole number');
  await expect(alert).toContainText('“zoom” is unknown');
  await expect(page.getByTestId('figure-fig3')).toHaveCount(1); // all figures: the default
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toHaveCount(0);
});

test('presenter mode: large type, no chrome, shortcuts on ?', async ({ page }, testInfo) => {
  await openView(page, '?view=paper&paper.fig=fig4', 'paper');
  const before = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
  await page.keyboard.press('p');
  await expect(page.locator('html.presenter')).toHaveCount(1);
  await expect(page).toHaveURL(/presenter=1/);
  await expect(page.locator('header.chrome')).toBeHidden();
  const after = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
  expect(parseFloat(after)).toBeGreaterThan(parseFloat(before));
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toContainText('presenter mode on / off');
  await expect(dialog).toContainText('Cluster view');
  await screenshot(page, testInfo, 'presenter');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // Number keys switch views; Esc leaves presenter mode.
  await page.keyboard.press('5');
  await expect(page.locator('html[data-ready="cost"]')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.locator('html.presenter')).toHaveCount(0);
  await expect(page.locator('header.chrome')).toBeVisible();
});

test('typing in a field does not trigger shortcuts', async ({ page }) => {
  await openView(page, '?view=cost', 'cost');
  await page.locator('[data-knob="cost.team"] input').fill('');
  await page.locator('[data-knob="cost.team"] input').type('1p2');
  await expect(page.locator('html.presenter')).toHaveCount(0);
  await expect(page.locator('html[data-ready="cost"]')).toHaveCount(1);
});

test('works offline: no view fetches anything from another host', async ({ page }) => {
  test.setTimeout(120_000);
  const foreign: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'data:' && url.protocol !== 'blob:') foreign.push(r.url());
  });
  for (const [query, view] of [
    ['?view=paper', 'paper'],
    ['?view=cluster&c.engine=all', 'cluster'],
    ['?view=lab', 'lab'],
    ['?view=race', 'race'],
    ['?view=cost', 'cost'],
  ] as const) {
    await openView(page, query, view, 30_000);
  }
  // Pyodide and the cost model load from this site too.
  await expect(page.getByTestId('break-even')).toHaveAttribute('data-month', /\d+/, { timeout: 60_000 });
  expect(foreign).toEqual([]);
});
