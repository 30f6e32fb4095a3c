// The Cluster view's "check linearizability" over a recorded run: Porcupine (wasm, in a worker)
// accepts an ordinary put and get, and rejects the run in which every node crashed and came
// back empty (no durability) — the acknowledged put is gone and the next read says so; the
// operations it cannot place are highlighted. A check Porcupine cannot finish in time ends
// undecided, by its time limit or by Stop, and the next check works.
import { test, expect } from '@playwright/test';
import { createStepSession } from '@replicant/sim';
import { provider } from '@replicant/sim/cli/engines';
import { openView } from './helpers.ts';
import { elect, slowRun } from './slow-run.ts';

async function recorded(amnesia: boolean): Promise<string[]> {
  const s = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 7 } }, await provider(['go']));
  let leader = elect(s);
  s.client(leader, 'put color blue');
  s.run_until_quiet();
  if (amnesia) {
    for (let id = 0; id < 3; id++) s.crash(id);
    for (let id = 0; id < 3; id++) s.restart(id);
    leader = elect(s);
  }
  s.client(leader, 'get color');
  s.run_until_quiet();
  return s.choices();
}

const url = (choices: string[]) => `?view=cluster&c.engine=go&seed=7&c.choices=${Buffer.from(JSON.stringify(choices)).toString('base64url')}`;

test('a plain run is linearizable; a whole-cluster restart with amnesia is caught and its operations highlighted', async ({ page }) => {
  test.setTimeout(90_000);
  await openView(page, url(await recorded(false)), 'cluster');
  await page.getByTestId('check-linearizability').click();
  const result = page.getByTestId('linearizability-result');
  await expect(result).toHaveAttribute('data-verdict', 'linearizable', { timeout: 30_000 });
  await expect(result).toContainText('2 operations checked');
  await expect(page.getByTestId('history-ops').locator('li')).toHaveText([/put color blue → ok/, /get color → "blue"/]);

  await openView(page, url(await recorded(true)), 'cluster');
  await page.getByTestId('check-linearizability').click();
  await expect(result).toHaveAttribute('data-verdict', 'violation', { timeout: 30_000 });
  await expect(result).toContainText('Not linearizable');
  await expect(page.getByTestId('history-ops').locator('li')).toHaveText([/put color blue → ok/, /get color → not_found/]);
  await expect(page.getByTestId('history-ops').locator('li[data-suspect="true"]')).not.toHaveCount(0);
  await expect(page.getByTestId('porcupine-html')).toBeVisible();
});

// 24 overlapping puts (and 4 gets) on one key, then amnesia: in Node the wasm Porcupine gave no
// verdict on this history at all (its Go runtime ran out of memory after 214 s, load 5-7;
// bench/porcupine-slow-run.ts; 16 puts took 41 s, 14 took 7-10 s). The test sets a 2 s limit
// through the page's test hook.
const SLOW_WRITERS = 24;
const SLOW_READERS = 4;

test('a check Porcupine cannot finish is undecided at its time limit or when stopped, and the next check works', async ({ page }) => {
  test.setTimeout(120_000);
  const run = await slowRun(SLOW_WRITERS, SLOW_READERS);
  const operations = SLOW_WRITERS + SLOW_READERS + 3; // with the put and get of color and the last get of k
  await page.addInitScript(() => {
    (window as unknown as { __replicantCheckLimitS: unknown }).__replicantCheckLimitS = 2;
  });
  await openView(page, url(run.session.choices()), 'cluster');
  const button = page.getByTestId('check-linearizability');
  const undecided = page.getByTestId('linearizability-undecided');

  await button.click();
  await expect(page.getByTestId('linearizability-checking')).toContainText(`Checking ${operations} operations on 2 keys`);
  await expect(button).toBeDisabled();
  await expect(undecided).toHaveAttribute('data-why', 'time-limit');
  await expect(undecided).toContainText('Porcupine did not decide within 2 s');
  await expect(undecided).toContainText(`${operations} operations on 2 keys`);
  await expect(undecided).toContainText('Porcupine’s own “unknown” verdict');
  await expect(page.getByTestId('linearizability-result')).toHaveCount(0);

  // Stop, on a limit long enough that only Stop can end it.
  await page.evaluate(() => {
    (window as unknown as { __replicantCheckLimitS: unknown }).__replicantCheckLimitS = 600;
  });
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page.getByTestId('linearizability-checking')).toContainText('of 600 s');
  await page.getByTestId('stop-linearizability').click();
  await expect(undecided).toHaveAttribute('data-why', 'stopped');
  await expect(undecided).toContainText('Stopped by you');

  // The same page, rewound to before the overlapping puts: the small history gets its verdict
  // from a fresh checker.
  await page.getByTestId('timeline').fill(String(run.small_step));
  await expect(page.getByTestId('step-counter')).toContainText(`step ${run.small_step}/`);
  await button.click();
  const result = page.getByTestId('linearizability-result');
  await expect(result).toHaveAttribute('data-verdict', 'linearizable');
  await expect(result).toContainText('2 operations checked');
  await expect(undecided).toHaveCount(0);
});

test('a time limit the test hook sets wrong is refused, not used', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __replicantCheckLimitS: unknown }).__replicantCheckLimitS = '2';
  });
  await openView(page, url(await recorded(false)), 'cluster');
  await page.getByTestId('check-linearizability').click();
  await expect(page.getByTestId('linearizability-error')).toContainText('__replicantCheckLimitS must be a number of seconds');
  await expect(page.getByTestId('linearizability-result')).toHaveCount(0);
});
