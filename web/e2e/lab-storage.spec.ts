import { test, expect } from '@playwright/test';
import { openView, screenshot } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 900 } });

const SMALL = 'lab.engines=rust&lab.records=100000&lab.rate=2000&lab.threads=64&lab.duration=1';

test('the durability knob runs each engine with and without an ordered log and says what it cost, simulated, with FLEET beside it', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await openView(page, `?view=lab&${SMALL}&lab.dur=ordered&lab.disk=cloud_block`, 'lab');
  await expect(page.locator('[data-knob="lab.dur"] select')).toHaveValue('ordered');
  await expect(page.locator('[data-knob="lab.disk"] select')).toHaveValue('cloud_block');
  await page.getByTestId('run-once').click();
  const panel = page.getByTestId('lab-storage');
  await expect(panel).toBeVisible({ timeout: 240_000 });
  await expect(page.getByTestId('lab-storage-sentence')).toContainText('Simulated with an ordered log on a cloud block volume');
  await expect(page.getByTestId('lab-storage-source')).toContainText(/Simulated, model card \d+\.\d+\.\d+, storage model \d+\.\d+\.\d+/);
  await expect(page.getByTestId('lab-storage-recovery')).toContainText('1175 ms');
  const cells = await page.getByTestId('storage-rust').locator('td.num').allTextContents();
  const [without, withLog] = cells[0]!.split('→').map((x) => Number(x.trim()));
  expect(withLog!).toBeGreaterThan(without! + 1);
  await screenshot(page, testInfo, 'lab-storage', false);
});

test('scattered entries with exact fidelity are refused with the reason; a bad durability in the address is named and not used', async ({ page }) => {
  test.setTimeout(300_000);
  await openView(page, `?view=lab&${SMALL}&lab.dur=scattered&lab.fid=exact`, 'lab');
  await page.getByTestId('run-once').click();
  await expect(page.getByTestId('lab-error')).toContainText('needs fidelity "fast"', { timeout: 120_000 });
  await openView(page, `?view=lab&${SMALL}&lab.dur=fsync`, 'lab');
  await expect(page.getByRole('alert').filter({ hasText: 'lab.dur=fsync' })).toContainText('Durability must be one of none, ordered, scattered');
  await expect(page.locator('[data-knob="lab.dur"] select')).toHaveValue('none');
});
