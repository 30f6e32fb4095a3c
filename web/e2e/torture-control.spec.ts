// A student starts a torture run from the Cluster view's control (not from an address): the
// known violation, caught by Porcupine with the operations it cannot place highlighted and the
// trace digest the command line prints for the same seed; then the same seed in durability log
// passes; Back returns to the violation; a seed that is not one says so and starts nothing (one
// page, so the web suite pays for one engine load).
import { test, expect, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { REPO, openView } from './helpers.ts';

interface CliReplay {
  digest: string;
  verdict: string;
  suspects: number[];
  passed: boolean;
}

/** `npm run torture -- --engine rust --replay SEED --durability D`, the command itself, read back. */
function cliReplay(seed: number, durability: 'none' | 'log'): Promise<CliReplay> {
  const args = ['--import', 'tsx', join(REPO, 'sim/src/cli/torture-cli.ts'), '--engine', 'rust', '--replay', String(seed), '--durability', durability];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: join(REPO, 'sim'), maxBuffer: 16 << 20 }, (err, stdout) => {
      const digest = /^digest ([0-9a-f]{16})$/m.exec(stdout)?.[1];
      const porcupine = /^porcupine: (.*)$/m.exec(stdout)?.[1];
      if (!digest || !porcupine) return reject(new Error(`torture --replay ${seed} printed no digest or verdict (${err?.message ?? ''}):\n${stdout.slice(-2000)}`));
      const v = JSON.parse(porcupine) as { verdict: string; suspect_operations: number[] };
      resolve({ digest, verdict: v.verdict, suspects: v.suspect_operations, passed: /^PASS$/m.test(stdout) });
    });
  });
}

async function suspectIndices(page: Page): Promise<number[]> {
  return page.getByTestId('torture-history').locator('li').evaluateAll((items) => items.flatMap((li, i) => (li.getAttribute('data-suspect') === 'true' ? [i] : [])));
}

test('the control starts the known violation, Porcupine catches it, the same seed passes in durability log, a bad seed starts nothing', async ({ page }) => {
  test.setTimeout(120_000);
  const none = cliReplay(275, 'none');
  const log = cliReplay(275, 'log');
  await openView(page, '?view=cluster&c.engine=rust', 'cluster', 60_000);

  await page.getByTestId('torture-known-violation').click();
  const verdict = page.getByTestId('torture-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'violation');
  await expect(verdict).toHaveAttribute('data-ok', 'false');
  expect(new URL(page.url()).searchParams.get('c.torture')).toBe('rust:275;durability=none');
  const cliNone = await none;
  expect(cliNone.verdict).toBe('violation');
  await expect(page.getByTestId('torture-digest')).toHaveText(cliNone.digest);
  expect(await suspectIndices(page)).toEqual(cliNone.suspects);
  await expect(page.getByTestId('torture-found')).toContainText(`The ${cliNone.suspects.length} operations it could not place are marked`);
  await expect(page.getByTestId('torture-spec')).toContainText('npm run torture -- --engine rust --replay 275 --durability none');
  // what the seed drew, faults in the order they start
  await expect(page.getByTestId('torture-drawn')).toContainText('Seed 275 drew 3 nodes');
  await expect(page.getByTestId('torture-faults').locator('li[data-kind="crash"]')).toHaveCount(1);

  // the same seed with durable nodes
  await page.getByTestId('torture-durability').selectOption('log');
  await page.getByTestId('torture-start').click();
  await expect(verdict).toHaveAttribute('data-verdict', 'linearizable');
  await expect(verdict).toHaveAttribute('data-ok', 'true');
  expect(new URL(page.url()).searchParams.get('c.torture')).toBe('rust:275;durability=log');
  const cliLog = await log;
  expect(cliLog.passed).toBe(true);
  await expect(page.getByTestId('torture-digest')).toHaveText(cliLog.digest);
  expect(await suspectIndices(page)).toEqual([]);
  await expect(page.getByTestId('torture-durability-note')).toContainText('The same crashes now pass.');
  // the node cards no longer claim durability none of a run in durability log
  await expect(page.getByTestId('node-0')).toBeVisible();
  await expect(page.locator('[data-testid^="volatile-"]')).toHaveCount(0);

  // Back returns to the violation (each run started is a history entry)
  await page.goBack();
  await expect(verdict).toHaveAttribute('data-verdict', 'violation');
  await expect(page.getByTestId('torture-digest')).toHaveText(cliNone.digest);
  await expect(page.getByTestId('torture-durability')).toHaveValue('none');

  // a seed that is not one: a clear error, nothing started, the run on screen still the earlier one
  const before = page.url();
  await page.getByTestId('torture-seed').fill('12abc');
  await page.getByTestId('torture-start').click();
  await expect(page.getByTestId('torture-seed-error')).toHaveText(
    'The seed must be a whole number from 0 to 1099511627776; "12abc" is not one. No run was started. The run below is still the earlier one.',
  );
  await expect(page.getByTestId('torture-seed')).toHaveAttribute('aria-invalid', 'true');
  expect(page.url()).toBe(before);
  await expect(verdict).toHaveAttribute('data-verdict', 'violation');
  await expect(page.getByTestId('torture-digest')).toHaveText(cliNone.digest);
});
