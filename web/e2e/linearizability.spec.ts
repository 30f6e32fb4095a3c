// The Cluster view's "check linearizability" over a recorded run: Porcupine (wasm, in a worker)
// accepts an ordinary put and get, and rejects the run in which every node crashed and came
// back empty (no durability) — the acknowledged put is gone and the next read says so; the
// operations it cannot place are highlighted.
import { test, expect } from '@playwright/test';
import { createStepSession, type StepSession } from '@replicant/sim';
import { provider } from '@replicant/sim/cli/engines';
import { openView } from './helpers.ts';

function leaderOf(s: StepSession): number {
  for (let id = 0; id < 3; id++) if ((JSON.parse(s.inspect(id)) as { role: string }).role === 'leader') return id;
  throw new Error('no leader');
}

function elect(s: StepSession): number {
  for (let i = 0; i < 20; i++) {
    s.next(); // the first due event: an election timer on a quiet cluster
    s.run_until_quiet();
    try {
      return leaderOf(s);
    } catch {
      // not yet
    }
  }
  throw new Error('no leader after 20 elections');
}

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
